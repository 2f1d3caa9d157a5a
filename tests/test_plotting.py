"""Pictures of a mechanism (issue 17): the numbers behind each picture, read back from the artists,
against the stored coordinates: beams through the element shape functions (an independent
Hermite interpolation here), rigid bodies at their stored pose, joints, loads and traces where the
model puts them, animation frame counts and durations from developer: Results, files and sweeps,
GIF frames read back with Pillow."""
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402  (Pillow is a dependency of matplotlib)

import rancf  # noqa: E402

E, RHO, AREA, INERTIA = 5e6, 2000.0, 4e-4, 2e-8
T_END, DT, EVERY = 0.5, 1e-4, 50          # outputs every 5 ms


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def run():
    m = rancf.Model(gravity=(0.0, -9.81))
    b1 = m.add_beam(1.0, 3, E, RHO, AREA, INERTIA)
    b2 = m.add_beam(0.8, 2, E, RHO, AREA, INERTIA, start=(1.0, 0.0))
    c = 0.1 * np.array([np.cos(0.3), np.sin(0.3)])
    r = m.add_rigid_body(0.05, 2e-4, position=(1.8 + c[0], c[1]), angle=0.3)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b1.start)
    j2 = m.add_joint("revolute", b1.end, b2.start)
    m.add_joint("revolute", b2.end, r.point(-0.1, 0.0))
    res = rancf.simulate(m, T_END, DT, method="rk4", output_every=EVERY)
    assert res.status == "ok"
    return m, res, (b1, b2, r, j2)


def lines(ax, gid):
    return [line for line in ax.lines if line.get_gid() == gid]


def data(line):
    return np.column_stack([np.asarray(a, dtype=float) for a in line.get_data()])


def hermite(nodes, xi):
    """Cubic Hermite interpolation of one element's positions and slopes, written out here
    independently of rancf.elements.beam: (n_xi, 2)."""
    (ra, sa), (rb, sb) = (nodes[0, :2], nodes[0, 2:]), (nodes[1, :2], nodes[1, 2:])
    return lambda l: (np.outer(2 * xi**3 - 3 * xi**2 + 1, ra) + np.outer(xi**3 - 2 * xi**2 + xi, l * sa)
                      + np.outer(-2 * xi**3 + 3 * xi**2, rb) + np.outer(xi**3 - xi**2, l * sb))


def check_centreline(drawn, beam_nodes, length):
    """The drawn points are, element by element, the Hermite interpolation at evenly spaced xi
    (at least 8 points per element, both ends included); returns the largest distance of a drawn
    point from the chord between its element's nodes."""
    n_el = len(beam_nodes) - 1
    per = (len(drawn) - 1) / n_el
    assert per == int(per) and per + 1 >= 8, f"{len(drawn)} points for {n_el} elements"
    per = int(per)
    xi = np.linspace(0.0, 1.0, per + 1)
    bulge = 0.0
    for k in range(n_el):
        expected = hermite(beam_nodes[k:k + 2], xi)(length / n_el)
        np.testing.assert_allclose(drawn[k * per:(k + 1) * per + 1], expected, rtol=0, atol=1e-13)
        chord = beam_nodes[k, :2] + np.outer(xi, beam_nodes[k + 1, :2] - beam_nodes[k, :2])
        bulge = max(bulge, np.max(np.linalg.norm(expected - chord, axis=1)))
    return bulge


def test_import_rancf_does_not_import_matplotlib():
    code = "import sys, rancf; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_beams_are_drawn_through_their_shape_functions(run):
    """At two times and at a time between outputs (the nearest output is drawn)."""
    m, res, (b1, b2, r, _) = run
    A = m.build()
    times = [0.2, 0.5]
    ax = res.plot(t=times)
    bulge = 0.0
    for b in (b1, b2):
        drawn = lines(ax, f"beam {b.index}")
        assert len(drawn) == len(times)
        for line, t in zip(drawn, times):
            i = int(np.argmin(np.abs(res.t - t)))
            nodes = res.nodes[i, A.beam_first_vertex[b.index]:][:b.n_nodes]
            bulge = max(bulge, check_centreline(data(line), nodes, b.length))
    assert bulge > 1e-3   # the beams bend: a polyline of the nodes would fail the check above
    # a time between outputs takes the nearest output (5 ms apart: 0.2013 -> 0.2)
    ax = res.plot(t=0.2013)
    i = int(np.argmin(np.abs(res.t - 0.2)))
    nodes = res.nodes[i, A.beam_first_vertex[b2.index]:][:b2.n_nodes]
    check_centreline(data(lines(ax, f"beam {b2.index}")[0]), nodes, b2.length)
    assert ax.get_title() == f"t = {res.t[i]:.6g} s"
    assert ax.get_aspect() == 1.0
    # t=None: the last output
    ax = res.plot()
    nodes = res.nodes[-1, A.beam_first_vertex[b1.index]:][:b1.n_nodes]
    check_centreline(data(lines(ax, f"beam {b1.index}")[0]), nodes, b1.length)


def test_several_times_are_told_apart_by_colour(run):
    m, res, (b1, _, _, _) = run
    ax = res.plot(t=[0.0, 0.25, 0.5])
    colours = [tuple(line.get_color()) for line in lines(ax, f"beam {b1.index}")]
    assert len(set(colours)) == 3
    cmap = matplotlib.colormaps["viridis"]
    np.testing.assert_allclose(colours, cmap([0.0, 0.5, 1.0]))
    assert len(ax.figure.axes) == 2 and ax.figure.axes[1].get_ylabel() == "t (s)"   # colorbar


def test_rigid_body_is_drawn_at_its_stored_pose(run):
    m, res, (_, b2, r, _) = run
    A = m.build()
    ax = res.plot(t=0.3)
    i = int(np.argmin(np.abs(res.t - 0.3)))
    stored = res.nodes[i, A.body_vertex[r.index]]
    frame = data(lines(ax, f"rigid body {r.index} frame")[0])
    np.testing.assert_allclose(frame[0], stored[:2], rtol=0, atol=1e-15)
    axis = frame[1] - frame[0]
    assert np.arctan2(axis[1], axis[0]) == pytest.approx(np.arctan2(stored[3], stored[2]), abs=1e-12)
    # the line from the centre to the joint point ends where the point is
    links = data(lines(ax, f"rigid body {r.index} links")[0])
    np.testing.assert_allclose(links[0], stored[:2], rtol=0, atol=1e-15)
    np.testing.assert_allclose(links[1], res.position(r.point(-0.1, 0.0))[i], rtol=0, atol=1e-14)


def test_traces_follow_the_points_over_the_run(run):
    m, res, (b1, b2, r, _) = run
    ax = res.plot(t=0.1, trace=(b2.end, r.point(0.1, 0.0)))
    for k, p in enumerate((b2.end, r.point(0.1, 0.0))):
        np.testing.assert_array_equal(data(lines(ax, f"trace {k}")[0]), res.position(p))
    ax = res.plot(trace=b1.end)   # a single point
    np.testing.assert_array_equal(data(lines(ax, "trace 0")[0]), res.position(b1.end))


def mechanism_of_every_kind():
    """A driven hub, a clamped beam, a revolute beam, a prismatic body on a beam (rail at 0.3 rad),
    a prismatic body on a slanted ground rail; a constant force, a force function of t, a positive
    and a negative moment."""
    m = rancf.Model(gravity=(0.0, -9.81), elastic_model="reissner")
    hub = m.add_rigid_body(2.0, 0.05, position=(0.0, 0.0))
    m.add_joint("revolute", m.ground.point(0.0, 0.0), hub.centre, drive=lambda t: (t**2, 2 * t, 2.0))
    b1 = m.add_beam(1.0, 4, 2e8, 7800.0, 1e-4, 1e-9, start=(0.2, 0.0))
    m.add_joint("fixed", hub.point(0.2, 0.0), b1.start)
    b2 = m.add_beam(0.6, 3, 2e8, 7800.0, 1e-4, 1e-9, start=(1.2, 0.0), angle=-np.pi / 2)
    m.add_joint("revolute", b1.end, b2.start)
    r1 = m.add_rigid_body(0.5, 1e-3, position=(1.3, -0.6))
    m.add_joint("prismatic", b2.end, r1.point(-0.1, 0.0), axis=0.3)
    r2 = m.add_rigid_body(0.5, 1e-3, position=(2.0, 0.5), angle=0.2)
    m.add_joint("prismatic", m.ground.point(2.0, 0.5, angle=0.2), r2.centre)
    m.add_force(b1.node(2), force=(0.0, -50.0))
    m.add_force(r1.centre, force=lambda t: (10.0 * np.cos(t), 5.0))
    m.add_force(b2.end, moment=5.0)
    m.add_force(r2.centre, moment=-3.0)
    return m


def test_model_plot_draws_joints_by_kind_loads_and_ground():
    m = mechanism_of_every_kind()
    ax = m.plot()
    assert not m.frozen   # plotting checks the model but leaves it open
    A = rancf.model.Assembly(m)
    x0 = A.x0
    # one artist per joint kind, at the joints of that kind
    styles = {}
    for kind, joints in (("revolute", [2]), ("prismatic", [3, 4]), ("fixed", [1]), ("driven", [0])):
        (line,) = lines(ax, f"joints {kind}")
        expected = [A.point_position(m.joints[k].child, x0) for k in joints]
        np.testing.assert_allclose(data(line), expected, rtol=0, atol=1e-15)
        styles[kind] = (line.get_marker(), matplotlib.colors.to_hex(line.get_markerfacecolor()))
    assert len(set(styles.values())) == 4
    # prismatic rails through the parent's point, along the parent's direction turned by axis
    rails = data(lines(ax, "rails")[0])
    for segment, parent, angle in ((rails[0:2], m.beams[1].end, -np.pi / 2 + 0.3),
                                   (rails[3:5], m.ground.point(2.0, 0.5), 0.2)):
        np.testing.assert_allclose(segment.mean(axis=0), A.point_position(parent, x0), atol=1e-14)
        d = segment[1] - segment[0]
        assert np.arctan2(d[1], d[0]) == pytest.approx(angle, abs=1e-12)
    np.testing.assert_array_equal(data(lines(ax, "ground")[0]), [[0.0, 0.0], [2.0, 0.5]])
    # one arrow per load; forces from their point along the force at t = 0, to one scale
    arrows = {k: [a for a in ax.texts if a.get_gid() == f"load {k}"] for k in range(4)}
    assert [len(a) for a in arrows.values()] == [1, 1, 1, 1]
    vectors = []
    for k, force in ((0, (0.0, -50.0)), (1, (10.0, 5.0))):
        (arrow,) = arrows[k]
        tail, head = np.array(arrow.xyann), np.array(arrow.xy)
        np.testing.assert_allclose(tail, A.point_position(m.loads[k].point, x0), atol=1e-15)
        v = head - tail
        assert v[0] * force[1] - v[1] * force[0] == pytest.approx(0.0, abs=1e-12)
        assert v @ force > 0
        vectors.append((head - tail, np.hypot(*force)))
    assert np.hypot(*vectors[0][0]) / vectors[0][1] == pytest.approx(np.hypot(*vectors[1][0]) / vectors[1][1])
    # moments: an arc around their point, from below to above (counter-clockwise) when positive
    for k, sign in ((2, 1.0), (3, -1.0)):
        (arrow,) = arrows[k]
        tail, head = np.array(arrow.xyann), np.array(arrow.xy)
        p = A.point_position(m.loads[k].point, x0)
        np.testing.assert_allclose((tail + head) / 2, p, atol=1e-14)
        assert np.sign(head[1] - tail[1]) == sign
    assert ax.get_aspect() == 1.0
    # the model's beams at rest are straight along their angle
    drawn = data(lines(ax, "beam 1")[0])
    s = np.linalg.norm(drawn - [1.2, 0.0], axis=1)
    np.testing.assert_allclose(drawn, np.column_stack([np.full_like(s, 1.2), -s]), atol=1e-15)


def test_model_plot_refuses_joint_points_apart():
    m = rancf.Model()
    b = m.add_beam(1.0, 2, E, RHO, AREA, INERTIA)
    m.add_joint("revolute", m.ground.point(0.0, 0.1), b.start)
    with pytest.raises(ValueError, match="apart"):
        m.plot()


def test_animation_frames_follow_fps_and_speed(run, tmp_path):
    """developer: Results, files and sweeps: T / speed * fps frames (to within one), a video of T /
    speed s; every frame shows the output nearest to its time; the GIF has those frames and that
    duration."""
    m, res, (b1, b2, _, _) = run
    T, fps, speed = res.t[-1] - res.t[0], 10, 0.5
    path = tmp_path / "chain.gif"
    anim = res.animate(path, fps=fps, speed=speed, trace=b2.end)
    n = len(list(anim.new_frame_seq()))
    assert abs(n - T / speed * fps) <= 1 and n == len(anim.frame_times)
    assert anim.duration == pytest.approx(n / fps)
    assert abs(anim.duration - T / speed) <= 1 / fps + 1e-12   # one frame, up to round-off
    np.testing.assert_allclose(np.diff(anim.frame_times), speed / fps)
    gap = np.abs(res.t[anim.output_index] - anim.frame_times)
    assert np.all(gap <= EVERY * DT / 2 + 1e-12)
    assert os.listdir(tmp_path) == ["chain.gif"]        # no temporary file left behind
    with Image.open(path) as gif:
        assert gif.n_frames == n
        durations = []
        for k in range(gif.n_frames):
            gif.seek(k)
            durations.append(gif.info["duration"])
    assert sum(durations) / 1000 == pytest.approx(n / fps)
    # saved: the figure shows the last frame (its time, the beam at that output, the trace so far)
    ax = anim.axes
    i = anim.output_index[-1]
    assert ax.get_title() == f"t = {res.t[i]:.3f} s"
    A = m.build()
    nodes = res.nodes[i, A.beam_first_vertex[b1.index]:][:b1.n_nodes]
    check_centreline(data(lines(ax, f"beam {b1.index}")[0]), nodes, b1.length)
    np.testing.assert_array_equal(data(lines(ax, "trace 0")[0]), res.position(b2.end)[:i + 1])


def test_mp4_is_written_or_names_ffmpeg(run, tmp_path):
    m, res, _ = run
    path = tmp_path / "chain.mp4"
    try:
        res.animate(path, fps=10, speed=1.0)
    except RuntimeError as exc:
        assert "ffmpeg" in str(exc) and "pip install imageio-ffmpeg" in str(exc)
        assert os.listdir(tmp_path) == []
    else:
        assert os.listdir(tmp_path) == ["chain.mp4"] and path.stat().st_size > 0


def test_energy_legend_covers_no_curve(run):
    """The energy legend sits outside the axes (six curves that cross leave no free corner)
    and inside the figure that plot_energy makes; a stored energy equal to a flow (kinetic
    energy and a drive's work) stays visible under the flow's dotted line."""
    _, res, _ = run
    ax = res.plot_energy()
    fig = ax.figure
    fig.canvas.draw()
    legend = ax.get_legend().get_window_extent()
    box = ax.get_window_extent()
    assert legend.x0 >= box.x1 or legend.y0 >= box.y1 or legend.x1 <= box.x0 or legend.y1 <= box.y0
    assert fig.bbox.contains(legend.x0, legend.y0) and fig.bbox.contains(legend.x1, legend.y1)
    for name in ("work", "dissipated"):
        assert lines(ax, name)[0].get_linestyle() == ":"
    for name in ("kinetic", "elastic", "gravity"):
        assert lines(ax, name)[0].get_linestyle() == "-"


def test_time_series(run):
    m, res, (_, b2, _, j2) = run
    e = res.energy()
    ax = res.plot_energy()
    for name in ("kinetic", "elastic", "gravity", "work", "dissipated", "total"):
        np.testing.assert_array_equal(data(lines(ax, name)[0]), e[["t", name]].to_numpy())
    np.testing.assert_allclose(e.total, e.kinetic + e.elastic + e.gravity - e.work + e.dissipated)
    assert ax.get_ylabel() == "energy (J)" and ax.get_xlabel() == "t (s)"

    fig, given = plt.subplots()
    ax = res.plot_joint(j2, ax=given)
    assert ax is given
    q, qd = res.joint(j2)
    np.testing.assert_array_equal(data(lines(ax, "q")[0])[:, 1], q)
    twin = [a for a in fig.axes if a is not ax][0]
    np.testing.assert_array_equal(data(lines(twin, "qd")[0])[:, 1], qd)
    assert ax.get_ylabel() == "q (rad)" and twin.get_ylabel() == "qd (rad/s)"

    ax = res.plot_position(b2.end)
    xy = res.position(b2.end)
    np.testing.assert_array_equal(data(lines(ax, "x")[0]), np.column_stack([res.t, xy[:, 0]]))
    np.testing.assert_array_equal(data(lines(ax, "y")[0]), np.column_stack([res.t, xy[:, 1]]))
    assert ax.get_ylabel().endswith("(m)")


def test_prismatic_joint_is_plotted_in_metres():
    m = rancf.Model()
    r = m.add_rigid_body(1.0, 0.1, position=(0.0, 0.0))
    slider = m.add_joint("prismatic", m.ground.point(0.0, 0.0, angle=-0.5), r.centre)
    res = rancf.simulate(m, 0.1, 1e-3, output_every=10)
    ax = res.plot_joint(slider)
    assert ax.get_ylabel() == "q (m)"


def test_a_result_without_its_model_cannot_draw_the_mechanism(run, tmp_path):
    m, res, _ = run
    res.save(tmp_path / "run.npz")
    alone = rancf.load(tmp_path / "run.npz")
    for call in (alone.plot, alone.animate, lambda: alone.plot_position(m.beams[0].end)):
        with pytest.raises(ValueError, match=r"model="):
            call()
    ax = alone.plot_energy()                      # the energies are stored
    np.testing.assert_array_equal(data(lines(ax, "total")[0])[:, 1], res.energy().total)
    ax = alone.plot_joint(1)
    assert ax.get_ylabel() == "q (rad or m)"


def test_bad_arguments_get_named_errors(run, tmp_path):
    m, res, (b1, _, _, _) = run
    other = rancf.Model()
    stranger = other.add_beam(1.0, 1, E, RHO, AREA, INERTIA)
    with pytest.raises(ValueError, match=r"t must be within the output times \[0, 0.5\] s, got 0.7"):
        res.plot(t=0.7)
    with pytest.raises(ValueError, match="t must be within"):
        res.plot(t=[0.1, float("nan")])
    with pytest.raises(ValueError, match="at least one time"):
        res.plot(t=[])
    with pytest.raises(TypeError, match="t must be None, a time"):
        res.plot(t="0.1")
    with pytest.raises(TypeError, match="ax must be a matplotlib Axes"):
        res.plot(ax="left")
    with pytest.raises(TypeError, match="trace must be a point or a sequence of points"):
        res.plot(trace="b1.end")
    with pytest.raises(TypeError, match="got 3 in it"):
        res.plot(trace=(b1.end, 3))
    with pytest.raises(ValueError, match="another model"):
        res.plot(trace=stranger.end)
    with pytest.raises(ValueError, match=r"fps must be finite and in \(0, inf\), got 0.0"):
        res.animate(fps=0)
    with pytest.raises(ValueError, match=r"speed must be finite and in \(0, inf\), got -1.0"):
        res.animate(speed=-1.0)
    with pytest.raises(TypeError, match="fps must be a real number"):
        res.animate(fps="30")
    with pytest.raises(ValueError, match=r"speed = 1e-09 .* at most 100000: speed must be >= "):
        res.animate(speed=1e-9)
    with pytest.raises(ValueError, match=r"path must end in .gif .* or .mp4 .*, got '.*x.avi'"):
        res.animate(tmp_path / "x.avi")
    with pytest.raises(TypeError, match="path must be None or a file path"):
        res.animate(3)
    with pytest.raises(ValueError, match="joint must be a Joint"):
        res.plot_joint(7)
    with pytest.raises(TypeError, match="point must be a point"):
        res.plot_position("tip")
    assert os.listdir(tmp_path) == []
    assert plt.get_fignums() == []    # no figure left behind by a refused call
    with pytest.raises(OSError, match="cannot write .*missing"):
        res.animate(tmp_path / "missing" / "x.gif", fps=2)
    assert os.listdir(tmp_path) == []
