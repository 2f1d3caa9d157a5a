# The two-node cubic Hermite element on xi in [0, 1] and its Gauss rules, for the compiled kernels
# of the elements that interpolate a centreline by it: the planar ANCF beam (_beam.pyx) and the
# spatial ANCF cable (_ancf_cable.pyx); rancf/elements/hermite.py is the Python counterpart.
#
# With xi = x / l, ``r(x) = S1 r_A + S2 r'_A + S3 r_B + S4 r'_B``::
#
#     S1 = 1 - 3 xi^2 + 2 xi^3,  S2 = l (xi - 2 xi^2 + xi^3),  S3 = 3 xi^2 - 2 xi^3,
#     S4 = l (xi^3 - xi^2).
#
# The Gauss-Legendre rules on [0, 1] of 3 points (exact to degree 5) and 5 points (to degree 9),
# Exudyn's gaussRuleOrder5 and gaussRuleOrder9: their points (the macros RANCF_G3X*, RANCF_G5X*;
# the middle one 0.5) and weights (G3W, G5W), and the xi-derivatives of S_k at the points,
# dS_k/dxi (DS3, DS5) and d2S_k/dxi2 (DDS3, DDS5), with the factor l of S2 and S4 left out
# (hermite_derivatives puts l back). They are constant tables in C: a module-level C array
# cannot be cimported from another module, a static const one in this header is compiled into
# each module that cimports it. The compiler folds the derivatives at the points in the order
# of operations written here, the order of the kernels' former tabulation at import, so the
# tables hold the same bits.
cdef extern from *:
    """
    #define RANCF_G3X0 0.1127016653792583
    #define RANCF_G3X2 0.8872983346207417
    #define RANCF_G5X0 0.04691007703066800
    #define RANCF_G5X1 0.2307653449471585
    #define RANCF_G5X3 0.7692346550528415
    #define RANCF_G5X4 0.9530899229693320
    #define RANCF_HERMITE_DS(xi) {-6.0 * (xi) + 6.0 * (xi) * (xi), \\
                                  1.0 - 4.0 * (xi) + 3.0 * (xi) * (xi), \\
                                  6.0 * (xi) - 6.0 * (xi) * (xi), \\
                                  3.0 * (xi) * (xi) - 2.0 * (xi)}
    #define RANCF_HERMITE_DDS(xi) {-6.0 + 12.0 * (xi), -4.0 + 6.0 * (xi), 6.0 - 12.0 * (xi), \\
                                   6.0 * (xi) - 2.0}
    static const double RANCF_G3W[3] = {0.2777777777777778, 0.4444444444444444,
                                        0.2777777777777778};
    static const double RANCF_G5W[5] = {0.1184634425280945, 0.2393143352496832,
                                        0.2844444444444444, 0.2393143352496832,
                                        0.1184634425280945};
    static const double RANCF_DS3[3][4] = {RANCF_HERMITE_DS(RANCF_G3X0), RANCF_HERMITE_DS(0.5),
                                           RANCF_HERMITE_DS(RANCF_G3X2)};
    static const double RANCF_DDS3[3][4] = {RANCF_HERMITE_DDS(RANCF_G3X0),
                                            RANCF_HERMITE_DDS(0.5),
                                            RANCF_HERMITE_DDS(RANCF_G3X2)};
    static const double RANCF_DS5[5][4] = {RANCF_HERMITE_DS(RANCF_G5X0),
                                           RANCF_HERMITE_DS(RANCF_G5X1), RANCF_HERMITE_DS(0.5),
                                           RANCF_HERMITE_DS(RANCF_G5X3),
                                           RANCF_HERMITE_DS(RANCF_G5X4)};
    static const double RANCF_DDS5[5][4] = {RANCF_HERMITE_DDS(RANCF_G5X0),
                                            RANCF_HERMITE_DDS(RANCF_G5X1),
                                            RANCF_HERMITE_DDS(0.5),
                                            RANCF_HERMITE_DDS(RANCF_G5X3),
                                            RANCF_HERMITE_DDS(RANCF_G5X4)};
    """
    const double G3W "RANCF_G3W"[3]          # weights of the 3-point rule (they sum to 1)
    const double G5W "RANCF_G5W"[5]          # weights of the 5-point rule
    const double DS3 "RANCF_DS3"[3][4]       # dS_k/dxi at the 3 points (l left out of S2, S4)
    const double DDS3 "RANCF_DDS3"[3][4]     # d2S_k/dxi2 at the 3 points
    const double DS5 "RANCF_DS5"[5][4]
    const double DDS5 "RANCF_DDS5"[5][4]


cdef inline void hermite_derivatives(const double* ds, const double* dds, double il,
                                     double* sp, double* spp) noexcept nogil:
    """S_k'(x) = dS_k/dx and S_k''(x), k = 1..4, from a Gauss point's row of the tables
    (DS*, DDS*); il = 1/l (1/m): ``S_k' = (dS_k/dxi)/l`` and ``S_k'' = (d2S_k/dxi2)/l^2``, where
    the factor l of S2, S4 left out of the tables cancels one 1/l."""
    sp[0] = ds[0] * il
    sp[1] = ds[1]
    sp[2] = ds[2] * il
    sp[3] = ds[3]
    spp[0] = dds[0] * il * il
    spp[1] = dds[1] * il
    spp[2] = dds[2] * il * il
    spp[3] = dds[3] * il
