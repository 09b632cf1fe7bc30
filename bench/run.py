#!/usr/bin/env python3
"""relic's side-by-side benchmark driver (issue: performance). Writes its tables into BENCHMARKS.md.

    python3 bench/run.py              # full run: 512 MiB archives, 17,045 small entries, 7 rounds
    python3 bench/run.py --quick      # 64 MiB archives, 3 rounds (a smoke run)
    python3 bench/run.py --ksy ../kaitai_struct_formats/game/evil_islands_res.ksy   # the public .ksy
    python3 bench/run.py --only listing   # one section (also extraction, textures, models), printed only

What it does, in one run:
- builds `relic` (release) and the `image_throughput` example, unless --no-build;
- makes test data under bench/work/ (git-ignored): a folder of 17,045 small files (50–400 random bytes, 64
  folders) and a folder of large incompressible files (1 MiB each), packed by relic into a RES, GRF, FTG and
  SRSC archive each, plus a tar of each folder for `tar -x`;
- runs every command and its peer interleaved (round by round, so load changes hit both alike), as whole
  processes, and keeps the median wall time; peak anonymous memory (RssAnon, sampled every 2 ms: mapped
  archive pages are file-backed and not counted) comes from two further runs of each, as sampling would
  slow the timed ones;
  - listing: `relic ls --json` of the 17,045-entry RES against a plain Python struct lister and the Kaitai
    Struct parser compiled from a `.ksy` of the RES layout when `kaitai-struct-compiler` (npm) and
    `kaitaistruct` (pip) install: the public one with `--ksy PATH` (`game/evil_islands_res.ksy` of
    kaitai-io/kaitai_struct_formats, in history at commit 2657241; it is read from outside this repository,
    never copied in), else bench/ksy/evil_islands_res.ksy, written from relic's spec;
  - extraction: `relic extract` of each large archive against `cp` of the archive, and of each many-entry
    archive against `tar -x` of the same files;
  - textures: the `image_throughput` example (decoding alone, PNG encoding alone, both), for MMP at each
    compression and for every image format through the registry;
  - models: `relic convert` of many copies of the sample models (RSM, RSM2, EI figure, Drakan), files/s;
- writes the tables, ratios and the machine's description between the markers in BENCHMARKS.md.
"""

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, "bench", "work")
RELIC = os.path.join(ROOT, "target", "release", "relic")
THROUGHPUT = os.path.join(ROOT, "target", "release", "examples", "image_throughput")
BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"
MANY = 17045
# The folder layout each archive holds (the tar peer extracts the same layout).
LAYOUT = {"res": "", "grf": "", "ftg": "-flat", "rrc": "-srsc"}


def sh(*args, **kw):
    return subprocess.run(args, check=True, **kw)


def rss_anon_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("RssAnon:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def run_once(cmd, cwd=None, sample=False):
    """Wall time (s) of one whole process, and with `sample` its peak anonymous memory (KiB).

    Timed runs are not sampled: the sampling thread would take a core from a program that uses both (on a
    2-core machine that added 1.5 ms to a 5 ms listing). Memory comes from separate, sampled runs."""
    peak = [0]
    done = threading.Event()
    start = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def sampler():
        while not done.is_set():
            peak[0] = max(peak[0], rss_anon_kib(p.pid))
            done.wait(0.002)

    t = threading.Thread(target=sampler) if sample else None
    if t:
        t.start()
    _, err = p.communicate()
    elapsed = time.perf_counter() - start
    done.set()
    if t:
        t.join()
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({p.returncode}): {err.decode(errors='replace')[-400:]}")
    return elapsed, peak[0]


def interleaved(cases, rounds, before=None):
    """cases: {name: (cmd, cwd)}; times them round by round, then samples each once (or twice) for memory;
    returns {name: (median s, max peak KiB)}."""
    times = {k: [] for k in cases}
    peaks = {k: 0 for k in cases}
    for _ in range(rounds):
        for name, (cmd, cwd) in cases.items():
            if before:
                before(name)
            times[name].append(run_once(cmd, cwd)[0])
    for _ in range(2):
        for name, (cmd, cwd) in cases.items():
            if before:
                before(name)
            peaks[name] = max(peaks[name], run_once(cmd, cwd, sample=True)[1])
    return {k: (statistics.median(v), peaks[k]) for k, v in times.items()}


def set_aside(folder, trash):
    """Empties `folder` for the next run without deleting its files: their data is truncated (so the disk
    does not fill) and the folder is moved into `trash`, deleted once the extraction tables are done.

    Deleting the previous run's files just before the next run measures the file system, not the program:
    ext4 skips inodes deleted in the last 30 seconds when it allocates new ones (`recently_deleted`), and
    that scan cost extraction of 512 files three times as much as `cp` of one file, in perf."""
    if not os.path.exists(folder):
        return
    for dirpath, _, files in os.walk(folder):
        for name in files:
            os.truncate(os.path.join(dirpath, name), 0)
    os.makedirs(trash, exist_ok=True)
    os.rename(folder, os.path.join(trash, f"{time.monotonic_ns()}"))


def write_files(folder, count, size_of, seed):
    rng = random.Random(seed)
    os.makedirs(folder, exist_ok=True)
    for i in range(count):
        d = os.path.join(folder, f"d{i % 64:02}")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, f"f{i:05}.bin"), "wb") as f:
            f.write(rng.randbytes(size_of(rng)))


def linked_flat(src, dst, name_of):
    """The same files (hard links) in one folder, the n-th (from 1, in sorted order) named `name_of(n)`:
    `f00001.bin` for FTG (names are 28 bytes), `0401_<n>.bin` for SRSC (plain records, `pack drakan-srsc`)."""
    os.makedirs(dst, exist_ok=True)
    n = 0
    for dirpath, _, files in sorted(os.walk(src)):
        for name in sorted(files):
            n += 1
            os.link(os.path.join(dirpath, name), os.path.join(dst, name_of(n)))


def make_data(large_mib):
    stamp = os.path.join(WORK, f"data-{large_mib}-v2.ok")
    if os.path.exists(stamp):
        return
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    many, large = os.path.join(WORK, "many"), os.path.join(WORK, "large")
    write_files(many, MANY, lambda r: r.randint(50, 400), 1)
    write_files(large, large_mib, lambda r: 1 << 20, 2)
    for name, folder in [("many", many), ("large", large)]:
        linked_flat(folder, os.path.join(WORK, f"{name}-flat"), lambda n: f"f{n:05}.bin")
        linked_flat(folder, os.path.join(WORK, f"{name}-srsc"), lambda n: f"0401_{n}.bin")
        for fmt, ext, src in [("ei-res", "res", folder), ("ro-grf", "grf", folder),
                              ("dr-ftg", "ftg", f"{folder}-flat"), ("drakan-srsc", "rrc", f"{folder}-srsc")]:
            sh(RELIC, "pack", fmt, "-o", os.path.join(WORK, f"{name}.{ext}"), src, stdout=subprocess.DEVNULL)
        # A tar of each layout the archives hold: folders (RES, GRF), one flat folder (FTG), SRSC records.
        for suffix in ["", "-flat", "-srsc"] if name == "many" else [""]:
            with tarfile.open(os.path.join(WORK, f"{name}{suffix}.tar"), "w") as t:
                t.add(f"{folder}{suffix}", arcname=f"{name}{suffix}")
    with open(stamp, "w") as f:
        f.write("ok\n")


PY_LISTER = r'''
import json, struct, sys
data = open(sys.argv[1], "rb").read()
magic, count, table, names_len = struct.unpack_from("<IIII", data, 0)
names = table + 22 * count
out = []
for i in range(count):
    nxt, size, off, t, nlen, noff = struct.unpack_from("<iIIiHI", data, table + 22 * i)
    out.append({"name": data[names + noff:names + noff + nlen].decode("cp1251"), "size": size})
sys.stdout.write(json.dumps(out))
'''

KAITAI_LISTER = r'''
import json, sys
sys.path.insert(0, sys.argv[2])
from evil_islands_res import EvilIslandsRes
r = EvilIslandsRes.from_file(sys.argv[1])
sys.stdout.write(json.dumps([{"name": f.name, "size": f.len_file} for f in r.filetable]))
'''


def kaitai_parser(ksy=None):
    """Compiles a `.ksy` of the RES layout to Python: `ksy` (the public one, from a checkout of
    kaitai-io/kaitai_struct_formats: `game/evil_islands_res.ksy`), else bench/ksy/evil_islands_res.ksy
    (written from relic's spec, for machines that cannot fetch the public one). None when the tools cannot
    be installed."""
    out = os.path.join(WORK, "kaitai-public" if ksy else "kaitai")
    if os.path.exists(os.path.join(out, "evil_islands_res.py")):
        return out
    tools = os.path.join(WORK, "kaitai-tools")
    try:
        sh("npm", "install", "--prefix", tools, "--no-audit", "--no-fund", "--loglevel=error",
           "kaitai-struct-compiler@0.11.0", "js-yaml@4.1.0", stdout=subprocess.DEVNULL)
        sh(sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--target", out,
           "kaitaistruct==0.11", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # The npm package is the compiler as a JS library (no command): bench/ksy/compile.js drives it.
        sh("node", os.path.join(ROOT, "bench", "ksy", "compile.js"), tools,
           ksy or os.path.join(ROOT, "bench", "ksy", "evil_islands_res.ksy"), out)
        return out
    except (subprocess.CalledProcessError, OSError) as e:
        print(f"Kaitai Struct peer skipped: {e}", file=sys.stderr)
        return None


def machine():
    cpu = platform.processor() or "?"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    mem = "?"
    try:
        with open("/proc/meminfo") as f:
            mem = f"{int(f.readline().split()[1]) / (1 << 20):.0f} GiB"
    except OSError:
        pass
    rustc = subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip()
    load = os.getloadavg()[0]
    return (f"{os.cpu_count()} cores ({cpu}), {mem} RAM, Linux {platform.release()}, {rustc}, "
            f"Python {platform.python_version()}; load average {load:.1f} at the start")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--rounds", type=int)
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--no-write", action="store_true", help="print the tables instead of editing BENCHMARKS.md")
    ap.add_argument("--ksy", help="the public evil_islands_res.ksy (kaitai_struct_formats) for the Kaitai peer")
    ap.add_argument("--only", choices=["listing", "extraction", "textures", "models"], action="append",
                    help="run these sections only (implies --no-write); may be repeated")
    a = ap.parse_args()
    if a.only:
        a.no_write = True
    sections = set(a.only or ["listing", "extraction", "textures", "models"])
    large_mib = 64 if a.quick else 512
    rounds = a.rounds or (3 if a.quick else 7)
    if not a.no_build:
        sh("cargo", "build", "--release", "-p", "relic-cli", cwd=ROOT)
        sh("cargo", "build", "--release", "-p", "relic", "--example", "image_throughput", cwd=ROOT)
    desc = machine()
    make_data(large_mib)
    out = os.path.join(WORK, "out")
    lines = [f"Run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, `bench/run.py{' --quick' if a.quick else ''}`,"
             f" {rounds} interleaved rounds, medians. Machine: {desc}.", ""]

    if "listing" in sections:
        # Listing
        res = os.path.join(WORK, "many.res")
        py = os.path.join(WORK, "lister.py")
        with open(py, "w") as f:
            f.write(PY_LISTER)
        cases = {"relic ls --json": ([RELIC, "ls", "--json", res], None),
                 "Python struct lister": ([sys.executable, py, res], None)}
        kaitai = kaitai_parser(a.ksy)
        if kaitai:
            kl = os.path.join(WORK, "kaitai_lister.py")
            with open(kl, "w") as f:
                f.write(KAITAI_LISTER)
            which = "public .ksy" if a.ksy else "relic's .ksy"
            cases[f"Kaitai Struct (Python, {which})"] = ([sys.executable, kl, res, kaitai], None)
        cases["process start-up (relic formats)"] = ([RELIC, "formats"], None)
        r = interleaved(cases, rounds * 3)
        base = r["relic ls --json"][0]
        lines += [f"### Listing {MANY:,} RES entries as JSON (whole processes)", "",
                  "| command | median | relic is faster by | peak anon. memory |", "|---|---:|---:|---:|"]
        for k, (t, m) in r.items():
            lines.append(f"| {k} | {t * 1000:.1f} ms | {t / base:.1f}× | {m / 1024:.1f} MiB |")
        lines.append("")

    if "extraction" in sections:
        # Extraction
        trash = os.path.join(WORK, "trash")
        if os.path.exists(trash):
            # Left by an interrupted run: delete it, then let ext4 forget the deleted inodes (see set_aside).
            shutil.rmtree(trash, ignore_errors=True)
            time.sleep(60)

        def clean(_name):
            set_aside(out, trash)
            os.makedirs(out)

        lines += ["### Extraction", "",
                  "| archive | relic extract | peer | relic / peer throughput | relic peak anon. memory |",
                  "|---|---:|---:|---:|---:|"]
        for kind, peer_name in [("large", "cp"), ("many", "tar -x")]:
            for ext in ["res", "grf", "ftg", "rrc"]:
                archive = os.path.join(WORK, f"{kind}.{ext}")
                peer = ([ "cp", archive, os.path.join(out, "copy")], None) if kind == "large" else \
                    (["tar", "-xf", os.path.join(WORK, f"{kind}{LAYOUT[ext]}.tar"), "-C", out], None)
                r = interleaved({"relic": ([RELIC, "extract", "-q", "-o", os.path.join(out, "x"), archive], None),
                                 "peer": peer}, rounds, before=clean)
                (rt, rm), (pt, _) = r["relic"], r["peer"]
                size = os.path.getsize(archive) / (1 << 20)
                lines.append(f"| {kind}.{ext} ({size:.0f} MiB) | {rt * 1000:.0f} ms | {peer_name} {pt * 1000:.0f} ms |"
                             f" {pt / rt:.2f} | {rm / 1024:.1f} MiB |")
        lines.append("")
        # Deleted at the end only: ext4 would make every run within 30 s of the deletion pay for it.
        set_aside(out, trash)
        shutil.rmtree(trash, ignore_errors=True)

    if "textures" in sections:
        # Textures
        tp = json.loads(subprocess.run([THROUGHPUT, "16" if a.quick else "32", "512"], check=True,
                                       capture_output=True, text=True).stdout)
        lines += [f"### Textures: MMP 512×512 with mips, {tp['files']} files, {tp['threads']} threads (MPix/s)", "",
                  "| format | decode | encode fast | whole fast | whole default | whole best | PNG bytes fast / best |",
                  "|---|---:|---:|---:|---:|---:|---:|"]
        for fmt in ["dxt1", "argb8"]:
            v = tp[fmt]
            lines.append(f"| {fmt.upper()} | {v['decode_mpix_s']:.0f} | {v['encode_fast_mpix_s']:.0f} |"
                         f" {v['whole_fast_mpix_s']:.0f} | {v['whole_default_mpix_s']:.0f} | {v['whole_best_mpix_s']:.0f} |"
                         f" {v['png_fast_bytes']:,} / {v['png_best_bytes']:,} |")
        lines.append("")
        lines += [f"### Every image format through `relic convert`'s path, {tp['files']} files each, fast PNG (MPix/s)",
                  "", "| format | megapixels | decode | encode | whole |", "|---|---:|---:|---:|---:|"]
        for f in tp["formats"]:
            lines.append(f"| {f['format']} | {f['megapixels']:.1f} | {f['decode_mpix_s']:.0f} |"
                         f" {f['encode_fast_mpix_s']:.0f} | {f['whole_fast_mpix_s']:.0f} |")
        lines.append("")

    if "models" in sections:
        # Models
        models = os.path.join(WORK, "models")
        if not os.path.exists(models):
            copies = 50
            for src in ["ragnarok/pyramid.rsm", "ragnarok/pyramid.rsm2", "drakan/Sample.mod", "evil_islands/unit.mod",
                        "evil_islands/unit.bon", "evil_islands/unit.anm", "evil_islands/unit.mmp"]:
                for i in range(copies):
                    d = os.path.join(models, f"set{i:03}")
                    os.makedirs(d, exist_ok=True)
                    shutil.copy(os.path.join(ROOT, "samples", src), d)
        r = interleaved({"convert": ([RELIC, "convert", "-q", "-f", "-o", out, models], None)}, rounds)
        files = sum(1 for _, _, fs in os.walk(models) for f in fs if not f.endswith((".bon", ".anm", ".mmp")))
        t, m = r["convert"]
        lines += ["### Models to GLB", "",
                  f"`relic convert` of {files} model files (RSM 1.4, RSM 2.3, Drakan `.mod` with a crate and a skinned"
                  f" character, an Evil Islands figure with bones, animations and texture): {t * 1000:.0f} ms,"
                  f" **{files / t:.0f} files/s**, peak anonymous memory {m / 1024:.1f} MiB.", ""]

    text = "\n".join(lines)
    if a.no_write:
        print(text)
        return
    path = os.path.join(ROOT, "BENCHMARKS.md")
    with open(path) as f:
        doc = f.read()
    if BEGIN in doc and END in doc:
        doc = doc[:doc.index(BEGIN) + len(BEGIN)] + "\n" + text + "\n" + doc[doc.index(END):]
    else:
        doc += f"\n## Side by side with peers (`bench/run.py`)\n\n{BEGIN}\n{text}\n{END}\n"
    with open(path, "w") as f:
        f.write(doc)
    print(text)


if __name__ == "__main__":
    main()
