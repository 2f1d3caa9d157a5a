"""
Rolling a strip into a circle
=============================

A spring-steel strip (1 m long, 20 mm wide, 1 mm thick, E = 210 GPa) is clamped at one end and
loaded at the other by a moment about its weak axis. A moment ``M`` bends a beam to the constant
curvature ``M / (E I)``, so the end moment ``2 pi E I / L`` rolls it up into a full circle and a
fraction ``f`` of it into an arc of angle ``a = 2 pi f``, whose free end lies at
``(L sin(a) / a, L (1 - cos a) / a)`` from the clamp along and across the strip. It is the
classic test of a geometrically nonlinear beam: the tip travels further than the strip is long,
and the strip turns by a full revolution.

``rancf.static`` finds the equilibrium by Newton's method, raising the load in steps
(``load_steps``) from the straight strip. The spatial elements measure their strain on SE(3)
(theory: Spatial beams), which an arc of constant curvature meets exactly: the tips below equal
the analytic ones to round-off at any number of elements.
"""

import matplotlib.pyplot as plt
import numpy as np

import rancf

L, width, thickness = 1.0, 0.02, 0.001           # m
E, G, rho = 210e9, 80e9, 7850.0                  # Pa, Pa, kg/m^3
A = width * thickness
I_weak = width * thickness**3 / 12               # about the section's y axis (thickness along z)
I_strong = thickness * width**3 / 12
J = width * thickness**3 / 3                     # a thin strip's torsion constant
M_circle = 2 * np.pi * E * I_weak / L            # N m: the moment of the full circle
print(f"E I = {E * I_weak:.4g} N m^2, the full circle's end moment 2 pi E I / L = "
      f"{M_circle:.4g} N m")


def rolled(fraction, n_elements=16, load_steps=8):
    """The strip's equilibrium under the end moment ``fraction * M_circle``: (result, strip)."""
    model = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    strip = model.add_beam(L, n_elements, E=E, G=G, rho=rho, A=A, I=(I_weak, I_strong), J=J,
                           direction=(1.0, 0.0, 0.0), up=(0.0, 1.0, 0.0))
    model.add_joint("fixed", model.ground.point(0.0, 0.0, 0.0), strip.start)
    # the moment about the section's y axis (the global y here) bends the strip in the x-z plane
    model.add_force(strip.end, moment=(0.0, -fraction * M_circle, 0.0))
    return rancf.static(model, load_steps=load_steps), strip


fractions = [0.125, 0.25, 0.5, 0.75, 1.0]
results = {f: rolled(f) for f in fractions}
print(" fraction  tip x (m)    exact       tip z (m)    exact      |error| (m)  Newton iterations")
for f, (res, strip) in results.items():
    a = 2 * np.pi * f
    exact = np.array([L * np.sin(a) / a, 0.0, L * (1 - np.cos(a)) / a])
    tip = res.position(strip.end)[0]
    print(f"{f:8.3f}  {tip[0]: .8f}  {exact[0]: .8f}  {tip[2]: .8f}  {exact[2]: .8f}  "
          f"{np.abs(tip - exact).max():.1e}     {res.status}, {res.extra['iterations'][0].tolist()}")

# %%
# The strip at each load drawn as a ribbon (its centreline plus and minus half the width
# along the section's y axis; the y axis stretched to show it), with the analytic arcs dotted. The quarter (f = 1/4) and the
# full circle are the two shapes of the issue; the circle closes on the clamp.

fig, ax = plt.subplots(figsize=(8, 6.5), subplot_kw={"projection": "3d"})
s = np.linspace(0.0, 1.0, 200)
for (f, (res, strip)), colour in zip(results.items(), plt.cm.viridis(np.linspace(0, 0.9, 5))):
    nodes = [strip.node(i) for i in range(strip.n_nodes)]
    centre = np.array([res.position(p)[0] for p in nodes])           # (nodes, 3)
    across = np.array([res.orientation(p)[0][:, 1] for p in nodes])  # section y axes
    edges = np.stack([centre - 0.5 * width * across, centre + 0.5 * width * across])
    ax.plot_surface(edges[..., 0], edges[..., 1], edges[..., 2], color=colour, alpha=0.8)
    ax.plot(*centre.T, "o", color=colour, ms=2.5, label=f"f = {f:g}")
    a = 2 * np.pi * f
    ax.plot(L * np.sin(a * s) / a, 0 * s, L * (1 - np.cos(a * s)) / a, ":", color="k", lw=1)
ax.plot([], [], ":", color="k", lw=1, label="analytic arcs")
ax.set(xlabel="x (m)", ylabel="y (m)", zlabel="z (m)",
       title="End moment f 2 pi E I / L: the strip's equilibria")
ax.set_ylim(-0.08, 0.08)
ax.set_box_aspect((1.12, 0.4, 0.66))           # y stretched 2.5 times, to show the width
ax.view_init(elev=22, azim=-58)
ax.legend(loc="upper left", fontsize=8)

# %%
# Discretization: the quarter and the full circle with 3 to 32 elements. The tip's distance
# from the analytic point stays at round-off for every mesh (an element that bends at
# constant curvature is an exact arc), where an element measuring its strain from the chord
# in the first node's frame would lock and converge only at the element's order (theory:
# Spatial beams). An element turns by less than half a turn (its rotation vector stays below
# pi), so the full circle needs three elements at least: with two, each would turn by half a
# turn, and ``rancf.static`` stops at the last load step saying so.

res, strip = rolled(1.0, n_elements=2)
print(f"full circle, 2 elements: {res.status}: {res.message}")
counts = [3, 4, 8, 16, 32]
fig, ax = plt.subplots(figsize=(7, 4), layout="constrained")
for f, marker in ((0.25, "o"), (1.0, "s")):
    a = 2 * np.pi * f
    exact = np.array([L * np.sin(a) / a, 0.0, L * (1 - np.cos(a)) / a])
    errors = []
    for n in counts:
        res, strip = rolled(f, n_elements=n)
        errors.append(max(np.abs(res.position(strip.end)[0] - exact).max(), 1e-17))
    print(f"f = {f:g}: tip error " + ", ".join(f"{e:.1e}" for e in errors) + f" m at {counts} elements")
    ax.semilogy(counts, errors, marker + "-", label=f"f = {f:g}")
ax.set_xscale("log", base=2)
ax.set(xlabel="elements", ylabel="|tip - analytic| (m)", ylim=(1e-18, 1e-3),
       title="Tip error against the analytic arc")
ax.legend()
