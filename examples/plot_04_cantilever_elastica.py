"""
A cantilever under a tip load, against the elastica
===================================================

A steel beam of 2 m and 0.1 m square section, clamped at the origin, bent by a force of
fixed direction at its tip, solved by :func:`rancf.static` with load stepping. The reference
is the inextensible elastica (tip displacement over L, computed with scipy's ``solve_bvp``
to 1e-10) for the load parameter ``k = P L^2 / (E I)``. Our beam is slightly extensible
(EA is finite), which accounts for part of the small difference.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import rancf

E, L = 2.07e11, 2.0
A, I = 0.01, 0.1**4 / 12
# k = P L^2 / EI: shortening u_x / L, deflection u_y / L of the inextensible elastica
ELASTICA = {1: (0.056433, 0.301721), 2: (0.160642, 0.493457), 3: (0.254420, 0.603253),
            4: (0.328941, 0.669964), 5: (0.387628, 0.713792), 10: (0.554996, 0.810609)}


def cantilever(k, n_elements):
    """Model of the cantilever with tip force k E I / L^2 straight down."""
    m = rancf.Model(gravity=(0.0, 0.0), elastic_model="reissner")
    b = m.add_beam(L, n_elements, E=E, rho=7800.0, A=A, I=I)
    m.add_joint("fixed", m.ground.point(0.0, 0.0), b.start)
    m.add_force(b.end, force=(0.0, -k * E * I / L**2))
    return m


rows = []
fig, ax = plt.subplots(figsize=(8, 6), layout="constrained")
for k, (ux, uy) in ELASTICA.items():
    res = rancf.static(cantilever(k, 16), load_steps=10)
    tip = res.tip()[0] / L
    rows.append({"k": k, "status": res.status, "u_x / L": 1 - tip[0], "u_x / L elastica": ux,
                 "u_y / L": -tip[1], "u_y / L elastica": uy,
                 "tip distance / L": np.hypot(1 - tip[0] - ux, -tip[1] - uy)})
    res.plot(ax=ax)
    ax.plot(L * (1 - ux), -L * uy, "kx", markersize=10)
ax.set_title("deformed shapes, k = 1, 2, 3, 4, 5, 10; crosses: the elastica's tip")
table = pd.DataFrame(rows)
table

# %%
# Mesh convergence at k = 5: the tip approaches the elastica's as the mesh is refined,
# until the beam's axial stretch is what is left: the elastica is inextensible, our beam's
# strain is of order ``P / (E A) = k I / (A L^2)``, 1.0e-3 here.

n = [2, 4, 8, 16, 32]
err = []
for n_el in n:
    tip = rancf.static(cantilever(5, n_el)).tip()[0] / L
    err.append(np.hypot(1 - tip[0] - ELASTICA[5][0], -tip[1] - ELASTICA[5][1]))
fig, ax = plt.subplots(layout="constrained")
ax.loglog(n, err, "o-")
ax.set(xlabel="elements", ylabel="tip distance from the elastica / L", title="k = 5")
print(dict(zip(n, np.round(err, 7))))
