# The Blender add-on's end-to-end test, run by Blender itself (crates/relic-cli/tests/outside/blender_addon.rs runs it):
#
#   blender --background --factory-startup --python-exit-code 1 --python blender/tests/test_addon.py -- \
#       --samples samples --out OUT_DIR [--pythonpath SITE_DIR] [--shim RELIC_BIN]
#
# It installs the add-on from a zip of blender/relic_io (into $BLENDER_USER_SCRIPTS when set, else it enables it
# from the folder), imports every sample model, map and terrain through File › Import › "relic: game model" and
# checks object, mesh, vertex, shape-key, armature, action and image counts and a vertex position (the exact
# float relic wrote, read back from relic's own glTF of the same file), then exports models back through
# File › Export and reads the written files with relic. `--pythonpath` is where the `relic` package is
# installed (`pip install --target DIR ./python`); `--shim` uses tests/support's stand-in over the CLI instead.
import json
import os
import struct
import sys
import tempfile
import traceback

import bpy

HERE = os.path.dirname(os.path.abspath(__file__))
ARGS = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else []


def arg(name, default=None, many=False):
    values = [ARGS[i + 1] for i, a in enumerate(ARGS[:-1]) if a == name]
    return values if many else (values[-1] if values else default)


SAMPLES = os.path.abspath(arg("--samples", os.path.join(HERE, "..", "..", "samples")))
OUT = os.path.abspath(arg("--out", tempfile.mkdtemp(prefix="relic-blender-")))
os.makedirs(OUT, exist_ok=True)
for folder in reversed(arg("--pythonpath", many=True)):
    sys.path.insert(0, os.path.abspath(folder))
if arg("--shim"):
    os.environ["RELIC_BIN"] = os.path.abspath(arg("--shim"))
    sys.path.insert(0, os.path.join(HERE, "support"))

import relic  # noqa: E402  (the package under test, or the shim)

print(f"relic {relic.__version__} from {os.path.dirname(relic.__file__)}")


def make_zip(out):
    """blender/make_zip.py's zip of the add-on (loaded by path: blender/ itself stays off sys.path, so that
    `relic_io` is the installed copy)."""
    import importlib.util  # noqa: PLC0415

    spec = importlib.util.spec_from_file_location("relic_make_zip", os.path.join(HERE, "..", "make_zip.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.make_zip(out)


def install_addon():
    if os.environ.get("BLENDER_USER_SCRIPTS"):
        zipped = make_zip(os.path.join(OUT, "relic_io.zip"))
        assert bpy.ops.preferences.addon_install(filepath=zipped, overwrite=True) == {"FINISHED"}
    else:
        sys.path.insert(0, os.path.join(HERE, ".."))
    assert bpy.ops.preferences.addon_enable(module="relic_io") == {"FINISHED"}
    import relic_io  # noqa: PLC0415

    print(f"add-on relic_io from {os.path.dirname(relic_io.__file__)}")
    assert hasattr(bpy.ops.import_scene, "relic") and hasattr(bpy.ops.export_scene, "relic")
    return relic_io


def reset():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    # read_factory_settings unloads add-ons the factory startup does not enable.
    assert bpy.ops.preferences.addon_enable(module="relic_io") == {"FINISHED"}


def glb_json_and_bin(path):
    data = open(path, "rb").read()
    magic, _version, _length = struct.unpack_from("<III", data, 0)
    assert magic == 0x46546C67, path
    jlen, _ = struct.unpack_from("<II", data, 12)
    doc = json.loads(data[20 : 20 + jlen])
    blen, _ = struct.unpack_from("<II", data, 20 + jlen)
    return doc, data[28 + jlen : 28 + jlen + blen]


def read_vec3(doc, blob, accessor, index):
    acc = doc["accessors"][accessor]
    view = doc["bufferViews"][acc["bufferView"]]
    stride = view.get("byteStride", 12)
    offset = view.get("byteOffset", 0) + acc.get("byteOffset", 0) + stride * index
    return struct.unpack_from("<fff", blob, offset)


def gltf_vertex(glb, mesh_name, index=0, target=None):
    """Vertex `index` of the first primitive of the mesh `mesh_name` in relic's glTF, in Blender's axes
    (glTF (x, y, z) is Blender (x, −z, y)): the base position, or the base plus morph target `target`."""
    doc, blob = glb_json_and_bin(glb)
    mesh = next(m for m in doc["meshes"] if m.get("name") == mesh_name)
    prim = mesh["primitives"][0]
    x, y, z = read_vec3(doc, blob, prim["attributes"]["POSITION"], index)
    if target is not None:
        dx, dy, dz = read_vec3(doc, blob, prim["targets"][target]["POSITION"], index)
        x, y, z = x + dx, y + dy, z + dz
    return (x, -z, y)


def relic_glb(path, name, **options):
    """The glTF relic converts `path` to (for the cross-check), in OUT/glb/<name>."""
    out = os.path.join(OUT, "glb", name)
    written = relic.convert(path, out, to="glb", force=True, **options)
    scenes = sorted(p for p in written if p.endswith(".glb"))
    assert scenes, written
    return scenes


def counts(collection_name):
    top = bpy.data.collections[collection_name]
    objects = list(top.all_objects)
    meshes = [ob for ob in objects if ob.type == "MESH"]
    return {
        "objects": len(objects),
        "meshes": len(meshes),
        "vertices": sum(len(ob.data.vertices) for ob in meshes),
        "shape_keys": sum(len(ob.data.shape_keys.key_blocks) for ob in meshes if ob.data.shape_keys),
        "armatures": sum(1 for ob in objects if ob.type == "ARMATURE"),
        "actions": len(bpy.data.actions),
        "images": len(bpy.data.images),
        "packed_images": sum(1 for img in bpy.data.images if img.packed_file is not None),
    }


def import_sample(rel, **options):
    path = os.path.join(SAMPLES, rel)
    result = bpy.ops.import_scene.relic(filepath=path, **options)
    assert result == {"FINISHED"}, (rel, result)
    return path


def check_equal(what, got, expected):
    assert got == expected, f"{what}: got {got}, expected {expected}"
    print(f"ok  {what}: {got}")


def check_vertex(what, ob, index, expected, cross):
    co = tuple(ob.data.vertices[index].co)
    check_equal(f"{what}: vertex {index}", co, expected)
    check_equal(f"{what}: vertex {index} is relic's glTF vertex", co, cross)


def test_evil_islands_figure():
    path = import_sample("evil_islands/unit.mod")
    check_equal(
        "unit.mod",
        counts("unit.mod"),
        {"objects": 2, "meshes": 2, "vertices": 8, "shape_keys": 18, "armatures": 0, "actions": 1, "images": 1, "packed_images": 1},
    )
    body = bpy.data.objects["body"]
    keys = [k.name for k in body.data.shape_keys.key_blocks]
    check_equal("unit.mod body shape keys", keys, ["Basis", "base", "str", "dex", "unique", "base(scaled)", "str(scaled)", "dex(scaled)", "unique(scaled)"])
    check_equal("unit.mod head parent", bpy.data.objects["head"].parent.name, "body")
    check_equal("unit.mod action", [a.name for a in bpy.data.actions], ["idle"])
    (glb,) = relic_glb(path, "unit")
    check_vertex("unit.mod body", body, 0, (1.0, 0.0, 0.0), gltf_vertex(glb, "body"))
    # The "str" extreme (relic's extreme1): base + its morph target.
    co = tuple(body.data.shape_keys.key_blocks["str"].data[3].co)
    cross = gltf_vertex(glb, "body", 3, target=1)
    assert all(abs(a - b) < 1e-6 for a, b in zip(co, cross)), (co, cross)
    print(f"ok  unit.mod body shape key str vertex 3: {co} (relic's extreme1 {cross})")

    # At a morph, the meshes are built there and the extremes stay keys.
    reset()
    import_sample("evil_islands/unit.mod", morph=(1.0, 0.0, 0.0), ei_names=False)
    body = bpy.data.objects["body"]
    check_equal("unit.mod at morph 1,0,0: keys", [k.name for k in body.data.shape_keys.key_blocks][:3], ["Basis", "extreme0", "extreme1"])
    (glb,) = relic_glb(path, "unit-str", morph=(1.0, 0.0, 0.0))
    check_equal("unit.mod at morph 1,0,0: vertex 3", tuple(body.data.vertices[3].co), gltf_vertex(glb, "body", 3))

    # Back to a figure: File › Export, then relic reads the .mod and the files beside it.
    reset()
    import_sample("evil_islands/unit.mod")
    out = os.path.join(OUT, "export", "unit.mod")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    assert bpy.ops.export_scene.relic(filepath=out, game="EVIL_ISLANDS") == {"FINISHED"}
    info = relic.open(out).info()
    check_equal("exported unit.mod: format, entries", (info["format"], info["entries"]), ("ei-res", 3))
    for beside in ("unit.bon", "unit.anm", "unit.mmp"):
        assert os.path.exists(os.path.join(os.path.dirname(out), beside)), beside
    # ... and imports again as the same figure.
    reset()
    bpy.ops.import_scene.relic(filepath=out)
    check_equal("unit.mod exported and imported again", counts("unit.mod")["shape_keys"], 18)
    check_equal("unit.mod exported and imported again: vertex 0", tuple(bpy.data.objects["body"].data.vertices[0].co), (1.0, 0.0, 0.0))
    # The extremes went through Blender as ei_figer-named shape keys and came back as the figure's morphs.
    check_equal(
        "unit.mod exported and imported again: shape key str vertex 3",
        tuple(bpy.data.objects["body"].data.shape_keys.key_blocks["str"].data[3].co),
        co,
    )
    check_equal("unit.mod exported and imported again: actions", [a.name for a in bpy.data.actions], ["idle"])


def test_ragnarok_models():
    for rel, objects, version, export_version in (
        ("ragnarok/pyramid.rsm", 3, "1.4", "1.4"),
        ("ragnarok/pyramid.rsm2", 2, "2.3", "2.3"),
    ):
        reset()
        path = import_sample(rel)
        name = os.path.basename(rel)
        check_equal(
            name,
            counts(name),
            {"objects": objects, "meshes": 1, "vertices": 18, "shape_keys": 0, "armatures": 0, "actions": 1, "images": 0, "packed_images": 0},
        )
        check_equal(f"{name}: source version", relic.open(path).info()["version"], version)
        mesh = next(ob for ob in bpy.data.objects if ob.type == "MESH")
        (glb,) = relic_glb(path, name)
        check_vertex(name, mesh, 0, (-1.0, 1.0, 0.0), gltf_vertex(glb, mesh.data.name))
        out = os.path.join(OUT, "export", "rt_" + name)
        assert bpy.ops.export_scene.relic(filepath=out) == {"FINISHED"}
        info = relic.open(out).info()
        check_equal(
            f"exported {name}: format, version, meshes, faces",
            (info["format"], info["version"], info["meshes"], info["faces"]),
            ("ro-rsm", export_version, 1, relic.open(path).info()["faces"]),
        )

    # Textures from a folder (relic's --textures): the texture embedded, then packed into the .blend.
    reset()
    folder = os.path.join(OUT, "textures")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(SAMPLES, "ragnarok/wall.bmp"), "rb") as src, open(os.path.join(folder, "stone.bmp"), "wb") as dst:
        dst.write(src.read())
    import_sample("ragnarok/pyramid.rsm2", textures=folder)
    got = counts("pyramid.rsm2")
    check_equal("pyramid.rsm2 with textures: images, packed", (got["images"], got["packed_images"]), (1, 1))
    info = relic.open(os.path.join(folder, "stone.bmp")).info()
    check_equal("pyramid.rsm2 with textures: image size", tuple(bpy.data.images[0].size), (info["width"], info["height"]))


def test_drakan_models():
    reset()
    path = import_sample("drakan/Sample.mod")
    check_equal(
        "Sample.mod",
        counts("Sample.mod"),
        {"objects": 4, "meshes": 3, "vertices": 46, "shape_keys": 0, "armatures": 1, "actions": 1, "images": 3, "packed_images": 3},
    )
    check_equal("Sample.mod: a collection per model", sorted(c.name for c in bpy.data.collections["Sample.mod"].children), ["Crate", "Wisp"])
    check_equal("Sample.mod action", [a.name for a in bpy.data.actions], ["sway"])
    crate = bpy.data.objects["Crate"]
    glbs = relic_glb(path, "Sample.mod")
    crate_glb = next(g for g in glbs if os.path.basename(g).startswith("Crate"))
    check_vertex("Sample.mod Crate", crate, 0, (1.0, -1.0, 0.0), gltf_vertex(crate_glb, crate.data.name))
    # The crate alone, exported back as a Drakan static model.
    bpy.ops.object.select_all(action="DESELECT")
    crate.select_set(True)
    out = os.path.join(OUT, "export", "Crate.mod")
    assert bpy.ops.export_scene.relic(filepath=out, game="DRAKAN", use_selection=True) == {"FINISHED"}
    info = relic.open(out).info()
    check_equal("exported Crate.mod: format", info["format"], "drakan-srsc")
    check_equal(
        "exported Crate.mod: records",
        {k: v for k, v in info["record_types"].items() if k.split()[0] in ("0x0200", "0x0203", "0x0204", "0x0206", "0x0207")},
        {"0x0200 model_name": 1, "0x0203 model_vertices": 1, "0x0204 model_polygons": 1, "0x0206 model_textures": 1, "0x0207 model_bounds": 1},
    )
    # relic's extras came back through Blender (custom properties, exported again): the model keeps its
    # texture references into Sample.txd, so no .txd of new textures is written beside it.
    check_equal("exported Crate.mod: a Crate.txd beside it", os.path.exists(os.path.join(OUT, "export", "Crate.txd")), False)

    reset()
    path = import_sample("drakan/Sample.lvl")
    check_equal(
        "Sample.lvl",
        counts("Sample.lvl"),
        {"objects": 3, "meshes": 2, "vertices": 234, "shape_keys": 0, "armatures": 0, "actions": 0, "images": 2, "packed_images": 2},
    )
    ledge = bpy.data.objects["2_Ledge"]
    (glb,) = relic_glb(path, "Sample.lvl")
    check_vertex("Sample.lvl 2_Ledge", ledge, 0, (6144.0, -4096.0, 3000.0), gltf_vertex(glb, ledge.data.name))


def test_evil_islands_map():
    reset()
    path = import_sample("evil_islands/isle.mp")
    check_equal(
        "isle.mp",
        counts("isle.mp"),
        {"objects": 3, "meshes": 2, "vertices": 5148, "shape_keys": 0, "armatures": 0, "actions": 0, "images": 0, "packed_images": 0},
    )
    land = bpy.data.objects["land"]
    (glb,) = relic_glb(path, "isle.mp")
    check_vertex("isle.mp land", land, 0, (0.0, 0.0, 5.526207447052002), gltf_vertex(glb, land.data.name))


def test_ragnarok_map():
    # A whole map: ground, water, its placed models (one mesh per model file, many nodes), lights, sounds and
    # effects as empties; no walkability overlay (relic leaves it out unless asked, issue 39).
    path = import_sample("ragnarok/map.rsw")
    check_equal(
        "map.rsw",
        counts("map.rsw"),
        # ground 96 + water 4 + pyramid.rsm placed twice, 18 each; tower.rsm is missing.
        {"objects": 21, "meshes": 4, "vertices": 136, "shape_keys": 0, "armatures": 0, "actions": 0, "images": 0, "packed_images": 0},
    )
    check_equal("map.rsw overlay", [ob.name for ob in bpy.data.objects if "walkability" in ob.name], [])
    # The sun at pi W/m2 (pi x 683 lux per unit of diffuse; the sample's diffuse is at most 1).
    sun = next(ob for ob in bpy.data.objects if ob.type == "LIGHT" and ob.data.type == "SUN")
    assert 2.0 <= sun.data.energy <= 5.0, sun.data.energy
    check_equal("map.rsw lights", sum(1 for ob in bpy.data.objects if ob.type == "LIGHT"), 2)
    water = bpy.data.objects["water.001"]
    (glb,) = relic_glb(path, "map.rsw")
    check_vertex("map.rsw water", water, 0, (15.0, 10.0, -5.0), gltf_vertex(glb, water.data.name))


def test_errors():
    # What relic refuses is Blender's error report, and nothing is left in the scene.
    for rel in ("ragnarok/wall.bmp", "evil_islands/settings.reg"):
        try:
            bpy.ops.import_scene.relic(filepath=os.path.join(SAMPLES, rel))
        except RuntimeError as err:
            message = str(err)
        else:
            raise AssertionError(f"{rel} imported")
        assert message.startswith("Error: "), message
        print(f"ok  {rel}: refused: {message.splitlines()[0]}")
        check_equal(f"{rel}: objects, collections left", (len(bpy.data.objects), len(bpy.data.collections)), (0, 0))
    try:
        bpy.ops.export_scene.relic(filepath=os.path.join(OUT, "export", "x.obj"))
    except RuntimeError as err:
        assert "relic writes .mod, .rsm and .rsm2 files" in str(err), err
        print("ok  x.obj: export refused")
    else:
        raise AssertionError("x.obj exported")


def main():
    install_addon()
    failed = []
    for test in (test_evil_islands_figure, test_ragnarok_models, test_drakan_models, test_evil_islands_map, test_ragnarok_map, test_errors):
        reset()
        print(f"--- {test.__name__}")
        try:
            test()
        except Exception:  # noqa: BLE001 (each test reports, the run fails at the end)
            traceback.print_exc()
            failed.append(test.__name__)
    if failed:
        print(f"FAILED: {', '.join(failed)}")
        sys.exit(1)
    print("all add-on tests passed")


main()
