# Planar geometry for the compiled kernels, stated once (theory: Rigid bodies, Joint coordinates).
#
# The counterparts of rancf/elements/planar.py as inline functions (cimported without a .pyx):
# each computes its formula with the arithmetic, in the order, of the kernels' former copies,
# so that replacing an expression by its function changed no bit. One order differs from
# planar.py's, said at body_point.

from libc.math cimport atan2, cos, floor, sin, M_PI


cdef inline void rotate(double a, const double* x, double* y) noexcept nogil:
    """y = R(a) x, ``R(a) = [[cos a, -sin a], [sin a, cos a]]`` (a in rad)."""
    cdef double ca = cos(a), sa = sin(a)
    y[0] = ca * x[0] - sa * x[1]
    y[1] = sa * x[0] + ca * x[1]


cdef inline void direction(double a, double* u) noexcept nogil:
    """u = (cos a, sin a) = R(a) e_x: the unit direction of the angle a (rad)."""
    u[0] = cos(a)
    u[1] = sin(a)


cdef inline void point_map(const double* d, const double* x, double* y) noexcept nogil:
    """y = A(d) x, ``A(d) = [[d_x, -d_y], [d_y, d_x]]``: the Jacobian of the body point
    ``r_G + A(d) u`` with respect to u (theory: Rigid bodies)."""
    y[0] = d[0] * x[0] - d[1] * x[1]
    y[1] = d[1] * x[0] + d[0] * x[1]


cdef inline void point_map_transposed(const double* d, const double* a, double* y) noexcept nogil:
    """y = A(d)^T a: the part on the axis u of the generalized force of a force a at the body
    point d (its part on r_G is a)."""
    y[0] = d[0] * a[0] + d[1] * a[1]
    y[1] = -d[1] * a[0] + d[0] * a[1]


cdef inline void point_map_rows(const double* d, double* P, long stride) noexcept nogil:
    """Write A(d) into the 2 x 2 block at P of a row-major matrix with ``stride`` columns."""
    P[0] = d[0]
    P[1] = -d[1]
    P[stride] = d[1]
    P[stride + 1] = d[0]


cdef inline void body_point(const double* X, const double* d, double* r) noexcept nogil:
    """r = r_G + A(d) u for the natural coordinates X = [r_G, u] of a rigid body and its point
    d (body frame, m), summed left to right. Linear in X, so the same function maps the rates
    [r_G', u'] to the point's velocity. planar.body_point, and the recursion's kinematics
    (r_G + P u with P's block A(d), point_map), add r_G to A(d) u instead, which may differ in
    the last bit: the joint points of the force kernels and of the kinematics each keep the
    rounding they had, so that no trajectory moves by it."""
    r[0] = X[0] + d[0] * X[2] - d[1] * X[3]
    r[1] = X[1] + d[1] * X[2] + d[0] * X[3]


cdef inline double wrap(double a) noexcept nogil:
    """a wrapped into [-pi, pi) (rad): ``a - 2 pi floor((a + pi) / (2 pi))``."""
    return a - 2.0 * M_PI * floor((a + M_PI) / (2.0 * M_PI))


cdef inline double joint_angle(const double* p, const double* c) noexcept nogil:
    """The angle from direction p to direction c, ``atan2(p x c, p . c)`` in [-pi, pi] (rad;
    theory: Joint coordinates)."""
    return atan2(p[0] * c[1] - p[1] * c[0], p[0] * c[0] + p[1] * c[1])
