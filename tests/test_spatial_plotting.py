"""Pictures and VTK files of a spatial mechanism (issue 22, "Seeing it"): the numbers behind each
picture, read back from the artists, against the Result's own readers of the motion
(``position``, ``orientation``: the poses of the tree's bodies) and against the model's reference
geometry as the user gave it; animation frame counts from DECISIONS 26; VTK frames read back
with meshio and the ParaView collection parsed as XML."""
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import meshio  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402  (Pillow is a dependency of matplotlib)

import rancf  # noqa: E402
from rancf.model import spatial_drawing  # noqa: E402
from rancf.results import files as result_files  # noqa: E402

T_END, DT, EVERY = 0.3, 5e-5, 300          # outputs every 15 ms
UP = np.array([0.0, 0.6, 0.8])             # the beam's up: its section y axis (x along +x)
TIP = np.array([0.1, 0.0, 0.0])            # the tip body's centre from the beam's end


def pendulum():
    """A soft beam of 1 m in 4 elements on a spherical joint to the ground, released along x,
    with a rigid body on a revolute joint at its end and a force on it."""
    m = rancf.Model(dim=3)
    b = m.add_beam(1.0, 4, E=2e8, rho=7800.0, A=1e-4, I=(8.3e-10, 1.7e-9), J=2e-9, G=8e7,
                   direction=(1.0, 0.0, 0.0), up=UP)
    r = m.add_rigid_body(0.05, np.diag([2e-5, 1e-4, 1e-4]), position=np.array([1.0, 0, 0]) + TIP)
    pin = m.add_joint("spherical", m.ground.point(0, 0, 0), b.start)
    hinge = m.add_joint("revolute", b.end, r.point(*-TIP), axis=(0.0, 0.0, 1.0))
    push = m.add_force(r.centre, force=(0.0, 0.2, 0.0))
    return m, b, r, (pin, hinge, push)


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def run():
    m, b, r, parts = pendulum()
    res = rancf.simulate(m, T_END, DT, method="rk4", output_every=EVERY)
    assert res.status == "ok", res.message
    return m, b, r, parts, res


def lines(ax, gid):
    return [line for line in ax.lines if line.get_gid() == gid]


def data(line):
    return np.column_stack([np.asarray(a, dtype=float) for a in line.get_data_3d()])


def segments(points):
    """The pieces of a NaN-separated polyline: a list of (n, 3) arrays."""
    gaps = np.flatnonzero(np.isnan(points[:, 0]))
    pieces = [piece[~np.isnan(piece[:, 0])] for piece in np.split(points, gaps)]
    return [piece for piece in pieces if len(piece)]


def node_positions(res, b, i):
    """(n_nodes, 3) positions of the beam's nodes at output i, by Result.position."""
    return np.array([res.position(b.node(k))[i] for k in range(b.n_nodes)])


def check_equal_scales(ax, points):
    """Every point is inside the limits, and the box's proportions are the limits' extents."""
    limits = np.array([ax.get_xlim(), ax.get_ylim(), ax.get_zlim()])
    assert np.all(points >= limits[:, 0] - 1e-12) and np.all(points <= limits[:, 1] + 1e-12)
    spans = limits[:, 1] - limits[:, 0]
    box = np.asarray(ax.get_box_aspect(), dtype=float)
    np.testing.assert_allclose(box / box[0], spans / spans[0], rtol=1e-12)


def test_import_rancf_imports_neither_matplotlib_nor_meshio():
    code = "import sys, rancf; print('matplotlib' in sys.modules, 'meshio' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_model_plot_draws_the_reference_geometry_as_given():
    """Against the geometry given to add_beam and add_rigid_body (not the tree's arrays)."""
    m, b, r, (pin, hinge, push) = pendulum()
    ax = m.plot()
    assert not m.frozen
    size = 1.0 + TIP[0]                         # the model's extent along x
    x = np.linspace(0.0, 1.0, 5)
    nodes = np.column_stack([x, 0 * x, 0 * x])
    np.testing.assert_allclose(data(lines(ax, "beam 0")[0]), nodes, atol=1e-15)
    y = UP / np.linalg.norm(UP)                # up is normal to the beam already
    ticks = segments(data(lines(ax, "beam 0 sections")[0]))
    assert len(ticks) == 5
    for node, tick in zip(nodes, ticks):
        np.testing.assert_allclose(tick, [node, node + spatial_drawing.SECTION_TICK * size * y],
                                   atol=1e-15)
    centre = np.array([1.0, 0.0, 0.0]) + TIP
    axes = segments(data(lines(ax, "rigid body 0 frame")[0]))
    for k, axis in enumerate(axes):
        length = spatial_drawing.FRAME * size * spatial_drawing.FRAME_AXES[k]
        np.testing.assert_allclose(axis, [centre, centre + length * np.eye(3)[k]], atol=1e-15)
    links = segments(data(lines(ax, "rigid body 0 links")[0]))   # to the hinge and the load
    np.testing.assert_allclose(links, [[centre, centre - TIP], [centre, centre]], atol=1e-15)
    np.testing.assert_allclose(data(lines(ax, "joints spherical")[0]), [[0, 0, 0]], atol=0)
    np.testing.assert_allclose(data(lines(ax, "joints revolute")[0]), [[1, 0, 0]], atol=1e-15)
    np.testing.assert_allclose(data(lines(ax, "ground")[0]), [[0, 0, 0]], atol=0)
    hinge_axis = segments(data(lines(ax, "joint axes")[0]))[0]
    np.testing.assert_allclose(hinge_axis[1] - hinge_axis[0],
                               [0, 0, 2 * spatial_drawing.AXIS * size], atol=1e-15)
    arrow = [c for c in ax.collections if c.get_gid() == "load 0"]
    assert len(arrow) == 1
    labels = {t.get_text() for t in ax.get_legend().get_texts()}
    assert labels == {"ground", "revolute joint", "spherical joint"}
    head = centre + spatial_drawing.FORCE_ARROW * size * np.array([0.0, 1.0, 0.0])
    check_equal_scales(ax, np.concatenate([nodes, [centre, head]]))


def arrow(ax, gid):
    """Tail and head of a quiver arrow: its shaft, the first segment of mplot3d's
    Line3DCollection, which holds it head first."""
    arrows = [c for c in ax.collections if c.get_gid() == gid]
    assert len(arrows) == 1
    return np.asarray(arrows[0]._segments3d[0], dtype=float)[::-1]


def test_model_plot_draws_loads_in_global_coordinates():
    """A follower moment turned by its body's reference frame, a global force, a load that is
    zero at t = 0 drawn as a cross."""
    m = rancf.Model(dim=3)
    turn = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])   # 90 deg about z
    r = m.add_rigid_body(1.0, np.diag([0.01, 0.02, 0.03]), position=(0.5, 0, 0),
                         orientation=turn)
    m.add_joint("universal", m.ground.point(0, 0, 0), r.point(0, 0.5, 0),
                axes=((0, 0, 1), (0, 1, 0)))
    m.add_force(r.centre, force=(0.0, 0.0, -3.0), moment=(2.0, 0.0, 0.0), follower=True)
    m.add_force(r.point(0, 0.1, 0), force=lambda t: (t, 0.0, 0.0))
    ax = m.plot()
    size = 0.5                          # the model's extent along x and y
    reach = spatial_drawing.FORCE_ARROW * size
    centre = np.array([0.5, 0.0, 0.0])
    np.testing.assert_allclose(arrow(ax, "load 0"), [centre, centre - reach * turn[:, 2]],
                               atol=1e-15)
    np.testing.assert_allclose(arrow(ax, "load 0 moment"), [centre, centre + reach * turn[:, 0]],
                               atol=1e-15)
    cross = lines(ax, "load 1")
    np.testing.assert_allclose(data(cross[0]), [centre + turn @ [0, 0.1, 0]], atol=1e-15)
    assert cross[0].get_marker() == "x"


def test_universal_axes_turn_with_parent_and_child():
    """a0 stays with the ground, a1 turns with the body; the cross keeps them orthogonal."""
    m = rancf.Model(dim=3)
    r = m.add_rigid_body(1.0, np.diag([0.01, 0.02, 0.03]), position=(0.3, 0.2, -0.4))
    a0, a1 = np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0])
    m.add_joint("universal", m.ground.point(0, 0, 0), r.point(-0.3, -0.2, 0.4), axes=(a0, a1))
    res = rancf.simulate(m, 0.4, 1e-3, output_every=100)
    assert res.status == "ok", res.message
    ax = res.plot(t=res.t)
    turned = 0.0
    for i, line in enumerate(lines(ax, "joint axes")):
        first, second = segments(data(line))
        d0, d1 = first[1] - first[0], second[1] - second[0]
        np.testing.assert_allclose(d0 / np.linalg.norm(d0), a0, atol=1e-14)
        np.testing.assert_allclose(d1 / np.linalg.norm(d1), res.orientation(r.centre)[i] @ a1,
                                   atol=1e-12)
        assert abs(d0 @ d1) <= 1e-9 * np.linalg.norm(d0) * np.linalg.norm(d1)
        turned = max(turned, np.linalg.norm(d1 / np.linalg.norm(d1) - a1))
    assert turned > 0.1                          # a1 has turned away from where it started


def test_result_plot_draws_each_time_at_the_results_positions(run):
    m, b, r, (pin, hinge, push), res = run
    times = [0.0, 0.15, 0.3]
    ax = res.plot(t=times, trace=b.end)
    size = m.build().size
    index = [int(np.argmin(np.abs(res.t - t))) for t in times]
    drawn = lines(ax, "beam 0")
    ticks = lines(ax, "beam 0 sections")
    frames = lines(ax, "rigid body 0 frame")
    hinges = lines(ax, "joints revolute")
    assert len(drawn) == len(ticks) == len(frames) == len(hinges) == 3
    every = []
    for k, i in enumerate(index):
        nodes = node_positions(res, b, i)
        every.append(nodes)
        np.testing.assert_allclose(data(drawn[k]), nodes, rtol=0, atol=1e-14)
        y = np.array([res.orientation(b.node(n))[i][:, 1] for n in range(b.n_nodes)])
        for node, axis, tick in zip(nodes, y, segments(data(ticks[k]))):
            np.testing.assert_allclose(tick, [node, node + spatial_drawing.SECTION_TICK * size
                                              * axis], rtol=0, atol=1e-14)
        centre, frame = res.position(r.centre)[i], res.orientation(r.centre)[i]
        for n, axis in enumerate(segments(data(frames[k]))):
            length = spatial_drawing.FRAME * size * spatial_drawing.FRAME_AXES[n]
            np.testing.assert_allclose(axis, [centre, centre + length * frame[:, n]], rtol=0,
                                       atol=1e-14)
        # the hinge is drawn at the body's point, which the motion keeps on the beam's end
        np.testing.assert_allclose(data(hinges[k])[0], res.position(r.point(*-TIP))[i], atol=1e-14)
        np.testing.assert_allclose(data(hinges[k])[0], nodes[-1], atol=1e-9)
    assert np.ptp(np.concatenate(every)[:, 2]) > 0.05     # it has fallen: the times differ
    np.testing.assert_allclose(data(lines(ax, "trace 0")[0]), res.position(b.end), atol=0)
    cmap = matplotlib.colormaps["viridis"]
    np.testing.assert_allclose([line.get_color() for line in drawn], cmap([0.0, 0.5, 1.0]))
    assert len(ax.figure.axes) == 2 and ax.figure.axes[1].get_ylabel() == "t (s)"   # colorbar
    check_equal_scales(ax, np.concatenate(every + [res.position(b.end)]))
    # one time: the nearest output, named in the title
    ax = res.plot(t=0.1601)
    i = int(np.argmin(np.abs(res.t - 0.1601)))
    np.testing.assert_allclose(data(lines(ax, "beam 0")[0]), node_positions(res, b, i),
                               atol=1e-14)
    assert ax.get_title() == f"t = {res.t[i]:.6g} s"


def test_animation_frames_follow_decisions_26(run, tmp_path):
    """floor(T / speed * fps) + 1 frames; frame k shows the output nearest t[0] + k speed / fps;
    fixed limits hold every node of every frame; the GIF has the frames."""
    m, b, r, _, res = run
    fps, speed = 20, 0.1
    anim = res.animate(fps=fps, speed=speed, trace=b.end)
    n = int(np.floor(T_END / speed * fps + 1e-9)) + 1
    assert len(anim.frame_times) == n == 61 and anim.duration == pytest.approx(n / fps)
    np.testing.assert_allclose(anim.frame_times, np.arange(n) * speed / fps, atol=1e-15)
    nearest = [int(np.argmin(np.abs(res.t - t))) for t in anim.frame_times]
    np.testing.assert_array_equal(anim.output_index, nearest)
    assert len(list(anim.new_frame_seq())) == n
    ax = anim.axes
    limits = (ax.get_xlim(), ax.get_ylim(), ax.get_zlim())
    anim._init_draw()                   # as matplotlib starts drawing an animation
    for k in (0, n // 2, n - 1):
        anim._draw_frame(k)
        i = nearest[k]
        nodes = node_positions(res, b, i)
        np.testing.assert_allclose(data(lines(ax, "beam 0")[0]), nodes, atol=1e-14)
        np.testing.assert_allclose(data(lines(ax, "trace 0")[0]), res.position(b.end)[:i + 1],
                                   atol=0)
        assert (ax.get_xlim(), ax.get_ylim(), ax.get_zlim()) == limits
    every = np.concatenate([node_positions(res, b, i) for i in range(len(res.t))])
    check_equal_scales(ax, every)
    path = tmp_path / "swing.gif"
    anim = res.animate(path, fps=10, speed=0.3)
    assert Image.open(path).n_frames == int(np.floor(T_END / 0.3 * 10 + 1e-9)) + 1 == 11
    assert os.listdir(tmp_path) == ["swing.gif"]


def test_plot_position_has_x_y_z(run):
    m, b, r, _, res = run
    ax = res.plot_position(b.end)
    xyz = res.position(b.end)
    for k, name in enumerate("xyz"):
        line = [line for line in ax.lines if line.get_gid() == name]
        np.testing.assert_array_equal(line[0].get_xdata(), res.t)
        np.testing.assert_array_equal(line[0].get_ydata(), xyz[:, k])


def test_plot_joint_has_each_coordinate(run):
    m, b, r, (pin, hinge, _), res = run
    ax = res.plot_joint(pin)
    twin = [a for a in ax.figure.axes if a is not ax][0]
    q, qd = res.joint(pin)
    for k in range(3):
        drawn = [line for line in ax.lines if line.get_gid() == f"q{k}"]
        np.testing.assert_array_equal(drawn[0].get_ydata(), q[:, k])
        assert drawn[0].get_label() == f"q{k} (rad)"
        drawn = [line for line in twin.lines if line.get_gid() == f"q{k}d"]
        np.testing.assert_array_equal(drawn[0].get_ydata(), qd[:, k])
    ax = res.plot_joint(hinge)
    assert [line.get_label() for line in ax.lines] == ["q (rad)"]
    np.testing.assert_array_equal(ax.lines[0].get_ydata(), res.joint(hinge)[0])


def test_drawing_errors(run):
    m, b, r, _, res = run
    _, flat = plt.subplots()
    with pytest.raises(TypeError, match="3D Axes"):
        res.plot(ax=flat)
    with pytest.raises(TypeError, match="3D Axes"):
        m.plot(ax=flat)
    with pytest.raises(ValueError, match="within the output times"):
        res.plot(t=1.0)


# --- VTK -----------------------------------------------------------------------------------


def read_collection(path):
    root = ET.parse(path).getroot()
    assert root.tag == "VTKFile" and root.get("type") == "Collection"
    return [(float(d.get("timestep")), d.get("file")) for d in root.iter("DataSet")]


def test_vtk_frames_hold_the_positions_and_frames(run, tmp_path):
    m, b, r, _, res = run
    pvd = res.to_vtk(tmp_path, name="swing")
    assert pvd == os.path.join(tmp_path, "swing.pvd")
    listed = read_collection(pvd)
    assert [t for t, _ in listed] == res.t.tolist()
    assert sorted(os.listdir(tmp_path)) == sorted(["swing.pvd"] + [f for _, f in listed])
    assert len(set(f for _, f in listed)) == len(res.t)
    for i, (_, file) in enumerate(listed):
        mesh = meshio.read(tmp_path / file)
        blocks = {c.type: c.data for c in mesh.cells}
        assert set(blocks) == {"line", "vertex"}
        lines_, vertex = blocks["line"], blocks["vertex"]
        assert lines_.shape == (4, 2) and vertex.shape == (1, 1)
        # the polyline: element k joins the points of nodes k and k + 1
        nodes = node_positions(res, b, i)
        np.testing.assert_allclose(mesh.points[lines_[:, 0]], nodes[:-1], rtol=0, atol=1e-14)
        np.testing.assert_allclose(mesh.points[lines_[:, 1]], nodes[1:], rtol=0, atol=1e-14)
        assert np.array_equal(lines_[1:, 0], lines_[:-1, 1])
        np.testing.assert_allclose(mesh.points[vertex[0, 0]], res.position(r.centre)[i],
                                   rtol=0, atol=1e-14)
        rows = np.append(lines_[:, 0], [lines_[-1, 1], vertex[0, 0]])
        for point, row in zip([b.node(k) for k in range(5)] + [r.centre], rows):
            frame = res.orientation(point)[i]
            for n, name in enumerate(("x_axis", "y_axis", "z_axis")):
                np.testing.assert_allclose(mesh.point_data[name][row], frame[:, n], atol=1e-14)
            np.testing.assert_allclose(mesh.point_data["velocity"][row], res.velocity(point)[i],
                                       atol=1e-12)
            np.testing.assert_allclose(mesh.point_data["angular_velocity"][row],
                                       res.angular_velocity(point)[i], atol=1e-12)
        assert mesh.cell_data["beam"][0].tolist() == [0] * 4
        assert mesh.cell_data["rigid_body"][1].tolist() == [0]


def test_an_interrupted_vtk_write_leaves_no_file_under_the_final_names(run, tmp_path,
                                                                         monkeypatch):
    m, b, r, _, res = run
    first = res.to_vtk(tmp_path, name="swing")
    before = {f: (tmp_path / f).read_bytes() for f in os.listdir(tmp_path)}
    calls = []
    write = meshio.write

    def failing(*args, **kwargs):
        calls.append(args[0])
        if len(calls) == 3:
            raise RuntimeError("disk gone")
        return write(*args, **kwargs)

    monkeypatch.setattr(meshio, "write", failing)
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    with pytest.raises(RuntimeError, match="disk gone"):
        res.to_vtk(fresh)
    assert os.listdir(fresh) == []                        # no frame, no temporary, no .pvd
    calls.clear()
    with pytest.raises(RuntimeError, match="disk gone"):
        res.to_vtk(tmp_path, name="swing")                # over a whole earlier export
    assert {f: (tmp_path / f).read_bytes() for f in os.listdir(tmp_path) if f != "fresh"} \
        == before
    assert os.path.exists(first)


def test_vtk_makes_a_missing_folder_and_its_parents(run, tmp_path):
    m, b, r, _, res = run
    folder = tmp_path / "runs" / "swing"
    pvd = res.to_vtk(folder, name="swing")
    assert pvd == str(folder / "swing.pvd")
    assert sorted(os.listdir(folder)) == ["swing.pvd"] + [f"swing_{k:05d}.vtu"
                                                          for k in range(len(res.t))]
    # the same files as an export into a folder made beforehand
    made = tmp_path / "made"
    made.mkdir()
    res.to_vtk(made, name="swing")
    for file in os.listdir(made):
        assert (made / file).read_bytes() == (folder / file).read_bytes()


def test_vtk_errors_are_named(run, tmp_path, monkeypatch):
    m, b, r, _, res = run
    a_file = tmp_path / "a_file"
    a_file.write_text("")
    with pytest.raises(NotADirectoryError, match="a_file"):
        res.to_vtk(a_file)
    with pytest.raises(NotADirectoryError, match="cannot make the folder .*a_file/below"):
        res.to_vtk(a_file / "below")                      # a parent that is a file
    with pytest.raises(ValueError, match="name"):
        res.to_vtk(tmp_path, name="sub/run")

    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(result_files, "_temporary", refused)
    with pytest.raises(OSError, match="cannot write .*result_00000.vtu: Permission denied"):
        res.to_vtk(tmp_path)
    monkeypatch.undo()
    assert os.listdir(tmp_path) == ["a_file"]
    planar = rancf.pendulum(n_bodies=1, elements_per_body=2, body_length=1.0)
    with pytest.raises(ValueError, match="to_vtk is for spatial results"):
        rancf.simulate(planar, 0.01, 1e-3).to_vtk(tmp_path)
    loaded = rancf.Result(None, res.t, res.nodes, res.velocities, res.joint_q, res.joint_qd,
                          res.reactions, res.work, res.dissipated,
                          energy_table={k: res.energy()[k] for k in ("kinetic", "elastic",
                                                                     "gravity")})
    with pytest.raises(ValueError, match="needs the model"):
        loaded.to_vtk(tmp_path)
    assert os.listdir(tmp_path) == ["a_file"]
