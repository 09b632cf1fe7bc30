"""The `relic` Python package over the repository's samples: every public function, with exact values."""

import io
import os
import pathlib
import re
import shutil
import subprocess
import sys
import threading
import time
import wave

import pytest

import relic

ROOT = pathlib.Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
IN_CI = os.environ.get("CI") == "true"


def sample(*parts):
    return str(SAMPLES.joinpath(*parts))


def needs(what, why):
    """Skips (printing what is missing) outside CI; fails under CI=true, where nothing may skip."""
    if IN_CI:
        pytest.fail(f"{what} is missing under CI: {why}")
    pytest.skip(f"{what} is missing: {why}")


# --- module -------------------------------------------------------------------------------------------------


def test_version_is_the_crates():
    cargo = (ROOT / "Cargo.toml").read_text(encoding="utf-8")
    version = re.search(r'^version = "([^"]+)"', cargo, re.M).group(1)
    assert relic.__version__ == version


def test_formats_lists_the_registry():
    formats = {f["id"]: f for f in relic.formats()}
    rsm = formats["ro-rsm"]
    assert rsm["name"] == "Ragnarok Online RSM/RSM2 model"
    assert rsm["game"] == "ragnarok"
    assert rsm["extensions"] == ["rsm", "rsm2"]
    assert rsm["kind"] == "model"
    assert rsm["capabilities"] == {"read": True, "convert": True, "write": True}
    assert rsm["versions"] == [0x104, 0x203] and rsm["pixel_formats"] == []
    assert rsm["targets"] == ["json", "glb", "gltf"]
    assert isinstance(rsm["packed_from"], str) and rsm["packed_from"]
    assert formats["ro-grf"]["kind"] == "archive"
    assert formats["ei-mmp"]["kind"] == "image"
    assert {"ei-res", "ro-grf", "drakan-srsc", "dr-ftg", "freerct-rcd"} <= formats.keys()


# --- identify -----------------------------------------------------------------------------------------------


def test_identify_path_and_pathlike():
    assert relic.identify(sample("ragnarok", "pyramid.rsm")) == "ro-rsm"
    assert relic.identify(SAMPLES / "ragnarok" / "example.grf") == "ro-grf"
    assert relic.identify(sample("evil_islands", "items.idb")) == "ei-db"
    assert relic.identify(str(ROOT / "README.md")) is None


def test_identify_bytes_magic_first_then_name():
    assert relic.identify(b"GRSM\x01\x04", "tree.bin") == "ro-rsm"
    assert relic.identify(bytearray(b"GRSM\x01\x04")) == "ro-rsm"
    # A name alone never claims bytes that say otherwise.
    assert relic.identify(b"hello", "tree.rsm") is None
    # A format without magic is known by its name when the bytes agree (a CAM is whole 36-byte records).
    cam = (SAMPLES / "evil_islands" / "intro.cam").read_bytes()
    assert relic.identify(cam, "intro.cam") == "ei-cam"
    assert relic.identify(cam) is None


# --- File ---------------------------------------------------------------------------------------------------


def test_open_and_info():
    mmp = relic.open(sample("evil_islands", "example_dxt1.mmp"))
    assert mmp.format == "ei-mmp"
    assert mmp.name == sample("evil_islands", "example_dxt1.mmp")
    assert mmp.is_archive is False
    assert mmp.info() == {
        "format": "ei-mmp",
        "width": 16,
        "height": 16,
        "pixel_format": "dxt1",
        "fourcc": "0x31545844",
        "mip_levels": 5,
        "bits_per_pixel": 4,
        "channels": "A1R5G5B5",
    }


def test_open_as_a_format():
    pal = relic.open(SAMPLES / "dark_reign" / "BARREN.PAL", format="dr-pal")
    assert pal.format == "dr-pal"


def test_from_bytes_names_formats_without_magic():
    data = (SAMPLES / "evil_islands" / "unit.lnk").read_bytes()
    lnk = relic.File.from_bytes(data, "unit.lnk")
    assert lnk.format == "ei-lnk"
    assert lnk.bytes() == data
    assert relic.File.from_bytes(bytearray(data), "unit.lnk").format == "ei-lnk"
    assert relic.File.from_bytes(memoryview(data), "unit.lnk").bytes() == data
    with pytest.raises(TypeError):
        relic.File.from_bytes("not bytes", "unit.lnk")
    cam = relic.File.from_bytes((SAMPLES / "evil_islands" / "intro.cam").read_bytes(), "camera", format="ei-cam")
    assert cam.format == "ei-cam"


def test_to_json_and_write_back():
    rsm = relic.open(sample("ragnarok", "pyramid.rsm"))
    document = rsm.to_json()
    assert document["textures"] == ["stone.bmp"]
    assert rsm.write_back() == (SAMPLES / "ragnarok" / "pyramid.rsm").read_bytes()
    assert rsm.info()["vertices"] == 5
    assert rsm.info()["faces"] == 6


def test_entries_of_a_grf():
    grf = relic.open(sample("ragnarok", "example.grf"))
    assert grf.format == "ro-grf" and grf.is_archive
    entries = grf.entries()
    assert [(e.name, e.path, e.size, e.modified) for e in entries] == [
        ("data\\readme.txt", "data/readme.txt", 40, None),
        ("data\\texture\\유저인터페이스\\sample.bmp", "data/texture/유저인터페이스/sample.bmp", 70, None),
    ]
    readme = b"A sample GRF archive written by relic.\r\n"
    assert entries[0].read() == readme
    stream = entries[0].open()
    assert isinstance(stream, io.BytesIO)
    assert stream.read(8) == b"A sample"
    assert stream.read() == readme[8:]
    assert grf.read_entry("DATA/README.TXT") == readme
    assert entries[1].open_file().format == "ro-texture"


def test_open_entry_and_to_png():
    from PIL import Image

    texture = relic.open(sample("ragnarok", "example.grf")).open_entry("data/texture/유저인터페이스/sample.bmp")
    assert texture.format == "ro-texture"
    assert len(texture.bytes()) == 70
    assert texture.info() == {"type": "bmp", "width": 2, "height": 2, "bits_per_pixel": 24, "format": "ro-texture"}
    image = Image.open(io.BytesIO(texture.to_png()))
    assert image.size == (2, 2)


def test_to_png_pixels():
    from PIL import Image

    image = Image.open(io.BytesIO(relic.open(sample("ragnarok", "wall.bmp")).to_png()))
    assert image.format == "PNG"
    assert image.size == (2, 2)
    assert image.mode == "RGBA"
    pixels = [image.getpixel((x, y)) for y in range(2) for x in range(2)]
    assert pixels == [(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255), (255, 255, 255, 255)]


def test_to_png_of_a_dxt1_texture():
    from PIL import Image

    image = Image.open(io.BytesIO(relic.open(sample("evil_islands", "example_dxt1.mmp")).to_png()))
    assert image.size == (16, 16)


def test_to_wav_read_by_wave():
    sound = relic.open(sample("drakan", "Sample.sdb")).to_wav()
    with wave.open(io.BytesIO(sound)) as w:
        assert (w.getnchannels(), w.getframerate(), w.getsampwidth(), w.getnframes()) == (1, 22050, 1, 64)
        assert w.readframes(4) == b"\x80\xa6\xc7\xdd"


def test_to_glb_and_its_options():
    rsm = relic.open(sample("ragnarok", "pyramid.rsm"))
    glb = rsm.to_glb()
    assert glb[:4] == b"glTF"
    assert int.from_bytes(glb[8:12], "little") == len(glb)
    figure = relic.open(sample("evil_islands", "unit.mod"))
    rest, strong = figure.to_glb(), figure.to_glb(morph=(1.0, 0.0, 0.0))
    assert rest[:4] == strong[:4] == b"glTF"
    assert rest != strong  # the mesh is built at another point between the morph extremes
    with pytest.raises(relic.Refused) as caught:
        rsm.to_glb(bogus=1)
    assert caught.value.kind == "refused"
    assert "unknown option `bogus`" in str(caught.value)
    with pytest.raises(relic.Refused):
        figure.to_glb(morph=(2.0, 0.0, 0.0))


def test_export_and_export_to(tmp_path):
    settings = relic.open(sample("evil_islands", "settings.reg"))
    outputs = settings.export("ini")
    assert [(p, k) for p, k, _ in outputs] == [("settings.reg.ini", "document")]
    written = settings.export_to(tmp_path, to="ini")
    assert written == [str(tmp_path / "settings.reg.ini")]
    assert (tmp_path / "settings.reg.ini").read_bytes() == outputs[0][2]
    with pytest.raises(relic.Refused):
        settings.export_to(tmp_path, to="ini")
    assert settings.export_to(tmp_path, to="ini", force=True) == written


# --- convert ------------------------------------------------------------------------------------------------


def test_convert_one_file(tmp_path):
    written = relic.convert(sample("ragnarok", "wall.bmp"), tmp_path)
    assert written == [str(tmp_path / "wall.bmp.png")]
    assert (tmp_path / "wall.bmp.png").read_bytes() == relic.open(sample("ragnarok", "wall.bmp")).to_png()


def test_convert_an_archive_and_warnings(tmp_path):
    written = relic.convert([SAMPLES / "ragnarok" / "example.grf"], tmp_path)
    assert written == [
        str(tmp_path / "example.grf" / "data" / "readme.txt"),
        str(tmp_path / "example.grf" / "data" / "texture" / "유저인터페이스" / "sample.bmp.png"),
    ]
    with pytest.warns(relic.RelicWarning, match=r"texture 'data\\texture\\stone.bmp' not found"):
        assert relic.convert(sample("ragnarok", "pyramid.rsm"), tmp_path) == [str(tmp_path / "pyramid.rsm.glb")]


def test_convert_refuses_existing_outputs_and_reports_failures(tmp_path):
    relic.convert(sample("evil_islands", "intro.cam"), tmp_path, to="json")
    with pytest.raises(relic.ConvertFailed) as caught:
        relic.convert(sample("evil_islands", "intro.cam"), tmp_path, to="json")
    assert caught.value.outputs == []
    assert len(caught.value.failures) == 1
    assert isinstance(caught.value, relic.Error)
    assert relic.convert(sample("evil_islands", "intro.cam"), tmp_path, to="json", force=True) == [
        str(tmp_path / "intro.cam.json")
    ]


def relic_cli():
    """The `relic` binary cargo built (RELIC_CLI, else target/debug or target/release), or None."""
    if os.environ.get("RELIC_CLI"):
        return os.environ["RELIC_CLI"]
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")
    for profile in ("debug", "release"):
        binary = target / profile / "relic"
        if binary.is_file():
            return str(binary)
    return shutil.which("relic")


def tree(folder):
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(pathlib.Path(folder).rglob("*")) if p.is_file()
    }


def test_convert_writes_what_the_cli_writes(tmp_path):
    cli = relic_cli()
    if cli is None:
        needs("the relic CLI binary", "build it with `cargo build -p relic-cli` or set RELIC_CLI")
    inputs = [sample("ragnarok"), sample("evil_islands", "unit.mod"), sample("dark_reign", "SPRITES.FTG")]
    ran = subprocess.run([cli, "convert", "-q", "-o", str(tmp_path / "cli"), *inputs], capture_output=True)
    assert ran.returncode == 0, ran.stderr.decode()
    with pytest.warns(relic.RelicWarning):
        written = relic.convert(inputs, tmp_path / "py")
    from_cli, from_python = tree(tmp_path / "cli"), tree(tmp_path / "py")
    # The records convert writes beside the outputs (`<input>.relic.json`) are relic's own, not outputs.
    outputs = [p for p in from_python if not p.endswith(".relic.json")]
    assert sorted(str(pathlib.Path(p).relative_to(tmp_path / "py")) for p in written) == sorted(outputs)
    assert sorted(from_python) == sorted(from_cli)
    assert len(from_cli) > 20
    for name, data in from_cli.items():
        assert from_python[name] == data, name


# --- pack ---------------------------------------------------------------------------------------------------


def test_pack_json_gives_back_the_file():
    original = (SAMPLES / "evil_islands" / "settings.reg").read_bytes()
    document = relic.open(sample("evil_islands", "settings.reg")).to_json()
    assert relic.pack_json("ei-reg", document) == original
    with pytest.raises(relic.Unsupported):
        relic.pack_json("no-such-format", document)


def test_pack_from_the_json_file(tmp_path):
    original = (SAMPLES / "ragnarok" / "pyramid.rsm").read_bytes()
    [json_path] = relic.convert(sample("ragnarok", "pyramid.rsm"), tmp_path, to="json")
    out = tmp_path / "again.rsm"
    report = relic.pack("ro-rsm", json_path, out)
    assert report == {"output": str(out), "bytes": len(original), "companions": [], "notes": []}
    assert out.read_bytes() == original
    with pytest.raises(relic.Refused) as caught:
        relic.pack("ro-rsm", json_path, out)
    assert caught.value.kind == "refused"
    assert relic.pack("ro-rsm", json_path, out, force=True)["bytes"] == len(original)


def test_pack_a_folder_with_a_version(tmp_path):
    folder = tmp_path / "folder"
    (folder / "data").mkdir(parents=True)
    (folder / "data" / "readme.txt").write_bytes(b"hello")
    out = tmp_path / "new.grf"
    report = relic.pack("ro-grf", folder, out, version=0x300)
    assert report["bytes"] == out.stat().st_size
    grf = relic.open(out)
    assert grf.info()["version"] in ("0x300", 0x300)
    assert [(e.name, e.read()) for e in grf.entries()] == [("data\\readme.txt", b"hello")]


def test_pack_a_png(tmp_path):
    png = tmp_path / "wall.png"
    png.write_bytes(relic.open(sample("ragnarok", "wall.bmp")).to_png())
    out = tmp_path / "tex.mmp"
    relic.pack("ei-mmp", png, out, pixel_format="argb8", mips=True)
    info = relic.open(out).info()
    assert (info["width"], info["height"], info["pixel_format"], info["mip_levels"]) == (2, 2, "argb8", 2)


def test_pack_rsm_from_its_glb(tmp_path):
    with pytest.warns(relic.RelicWarning):
        [glb] = relic.convert(sample("ragnarok", "pyramid.rsm"), tmp_path)
    out = tmp_path / "back.rsm"
    report = relic.pack("ro-rsm", glb, out)
    assert report["output"] == str(out) and report["bytes"] == out.stat().st_size
    back = relic.open(out)
    assert back.format == "ro-rsm"
    info = back.info()
    assert (info["version"], info["meshes"], info["vertices"], info["faces"]) == ("1.4", 1, 5, 6)
    assert info["textures"] == ["stone.bmp"]
    rsm2 = tmp_path / "back.rsm2"
    relic.pack("ro-rsm", glb, rsm2, version=0x203)
    assert relic.open(rsm2).info()["version"] == "2.3"


def test_pack_evil_islands_figure_from_its_glb(tmp_path):
    [glb] = relic.convert(sample("evil_islands", "unit.mod"), tmp_path)
    out = tmp_path / "new" / "unit.mod"
    report = relic.pack("ei-res", glb, out)
    # The bytes are the model's own; the bones, animations and texture written beside it are listed with theirs.
    assert report["bytes"] == out.stat().st_size
    new = tmp_path / "new"
    assert report["companions"] == [
        {"output": str(new / name), "bytes": (new / name).stat().st_size} for name in ("unit.bon", "unit.anm", "unit.mmp")
    ]
    assert sorted(os.listdir(tmp_path / "new")) == ["unit.anm", "unit.bon", "unit.mmp", "unit.mod"]
    original = relic.open(sample("evil_islands", "unit.mod")).entries()
    assert [(e.name, e.size) for e in relic.open(out).entries()] == [(e.name, e.size) for e in original]


def test_pack_drakan_model_from_its_glb(tmp_path):
    written = relic.convert(sample("drakan", "Sample.mod"), tmp_path)
    crate = str(tmp_path / "Sample.mod" / "models" / "Crate.view.glb")
    assert crate in written
    out = tmp_path / "Crate.mod"
    report = relic.pack("drakan-srsc", crate, out)
    assert report["bytes"] == out.stat().st_size == 570
    info = relic.open(out).info()
    assert info["record_types"] == {
        "0x0200 model_name": 1,
        "0x0203 model_vertices": 1,
        "0x0204 model_polygons": 1,
        "0x0206 model_textures": 1,
        "0x0207 model_bounds": 1,
    }


# --- check --------------------------------------------------------------------------------------------------


def test_check_a_folder():
    report = relic.check(SAMPLES / "ragnarok")
    files = [p for p in (SAMPLES / "ragnarok").rglob("*") if p.is_file()]
    assert len(files) >= 11
    assert {k: report[k] for k in ("identical", "differs", "failed", "read", "unknown")} == {
        "identical": len(files),
        "differs": 0,
        "failed": 0,
        "read": 0,
        "unknown": 0,
    }
    assert {"path": sample("ragnarok", "pyramid.rsm"), "format": "ro-rsm", "outcome": "identical"} in report["files"]
    assert {"path": sample("ragnarok", "novice_m.imf"), "format": "ro-imf", "outcome": "identical"} in report["files"]


def test_check_matches_the_cli():
    cli = relic_cli()
    if cli is None:
        needs("the relic CLI binary", "build it with `cargo build -p relic-cli` or set RELIC_CLI")
    import json

    ran = subprocess.run([cli, "check", "--json", sample("evil_islands")], capture_output=True)
    assert json.loads(ran.stdout) == relic.check(sample("evil_islands"))


# --- errors -------------------------------------------------------------------------------------------------


def test_truncated_file_is_located():
    data = (SAMPLES / "ragnarok" / "pyramid.rsm").read_bytes()[:40]
    truncated = relic.File.from_bytes(data, "pyramid.rsm")
    with pytest.raises(relic.LimitError) as caught:
        truncated.to_json()
    error = caught.value
    assert isinstance(error, relic.Error)
    assert (error.kind, error.format, error.field, error.offset) == ("limit", "ro-rsm", "textures", 0x1F)
    assert str(error).startswith("ro-rsm: textures at offset 0x1F: ")


def test_invalid_data_is_located(tmp_path):
    bad = tmp_path / "bad.rsm"
    bad.write_bytes(b"GRSM\x09\x09" + bytes(50))
    with pytest.raises(relic.InvalidData) as caught:
        relic.open(bad).info()
    error = caught.value
    assert (error.kind, error.format, error.field, error.offset) == ("invalid", "ro-rsm", "version", 4)
    # The message names the file it came from.
    assert str(error).startswith(str(bad) + ": ro-rsm: version at offset 0x4")


def test_unlocated_errors():
    with pytest.raises(relic.Error) as caught:
        relic.open(SAMPLES / "no-such-file.rsm")
    assert (caught.value.kind, caught.value.format, caught.value.field, caught.value.offset) == ("io", None, None, None)
    with pytest.raises(relic.Unsupported) as caught:
        relic.open(ROOT / "README.md")
    assert caught.value.kind == "unsupported" and caught.value.offset is None
    assert str(caught.value).endswith("not a format relic knows")
    with pytest.raises(relic.Unsupported, match="not an archive"):
        relic.open(sample("ragnarok", "pyramid.rsm")).entries()
    with pytest.raises(relic.Refused, match="no entry named"):
        relic.open(sample("ragnarok", "example.grf")).read_entry("data/none.txt")
    with pytest.raises(relic.Unsupported, match="holds no sound"):
        relic.open(sample("drakan", "Sample.txd")).to_wav()


# --- the GIL ------------------------------------------------------------------------------------------------


def test_calls_release_the_gil(tmp_path):
    """A thread counts while relic works: the counter advances during a call only if relic let go of the GIL.

    The switch interval is made huge, so Python never takes the GIL from a running thread by itself: the
    counting thread (which sleeps a little between counts, letting go of the GIL) gets it back only when the
    main thread lets go of it. The control, a pure-Python loop holding the GIL for longer than many of the
    counter's sleeps, shows that the counter then stands still, so the test cannot pass by chance; each call
    is tried a few times so that it cannot fail by chance either.
    """
    import warnings

    counter = [0]
    stop = threading.Event()
    started = threading.Event()

    def count():
        started.set()
        while not stop.is_set():
            counter[0] += 1
            time.sleep(0.0002)

    def advances(call, tries):
        for _ in range(tries):
            before = counter[0]
            call()
            if counter[0] > before:
                return True
        return False

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    thread = threading.Thread(target=count, daemon=True)
    try:
        thread.start()
        started.wait()
        # Control: Python code holding the GIL; the counter cannot move.
        before = counter[0]
        sum(i * i for i in range(300_000))
        assert counter[0] == before

        runs = iter(range(1000))

        def convert():
            with warnings.catch_warnings(record=True):
                relic.convert(SAMPLES, tmp_path / str(next(runs)), to="json")

        assert advances(convert, 20), "the counter never advanced during relic.convert"
        level = relic.open(sample("drakan", "Sample.lvl"))
        assert advances(level.to_glb, 200), "the counter never advanced during File.to_glb"
        assert advances(lambda: relic.check(SAMPLES), 20), "the counter never advanced during relic.check"
    finally:
        stop.set()
        sys.setswitchinterval(interval)
        thread.join()


# --- the package as installed -------------------------------------------------------------------------------


def test_stubs_and_docstrings_are_installed():
    package = pathlib.Path(relic.__file__).parent
    assert (package / "py.typed").is_file()
    stubs = (package / "__init__.pyi").read_text(encoding="utf-8")
    for name in relic.__all__:
        if name != "__version__":
            assert re.search(rf"^(class|def) {name}\b", stubs, re.M), f"{name} has no stub"
            assert getattr(relic, name).__doc__, f"relic.{name} has no docstring"
    for cls in (relic.File, relic.Entry):
        for attr in dir(cls):
            if not attr.startswith("_"):
                assert getattr(cls, attr).__doc__, f"{cls.__name__}.{attr} has no docstring"
                assert re.search(rf"def {attr}\b", stubs), f"{cls.__name__}.{attr} has no stub"


def test_readme_python_block_runs(tmp_path, monkeypatch):
    """The README's "## Python" example, run as it stands from a folder holding the samples."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    (tmp_path / "samples").symlink_to(SAMPLES, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    with pytest.warns(relic.RelicWarning):
        exec(compile(block, "README.md", "exec"), {})
    assert relic.open(tmp_path / "x.rsm").info()["version"] == "2.3"
    assert (tmp_path / "out" / "ragnarok" / "pyramid.rsm.glb").is_file()
