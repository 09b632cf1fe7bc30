"""Zips the add-on for Blender's Preferences › Add-ons › Install: `python3 blender/make_zip.py [OUT.zip]`
(default `relic_io.zip` in the current folder). The same as `cd blender && zip -r relic_io.zip relic_io`,
without `__pycache__`."""

import os
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))


def make_zip(out):
    folder = os.path.join(HERE, "relic_io")
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for root, dirs, files in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith(".pyc"):
                    continue
                path = os.path.join(root, name)
                zf.write(path, os.path.relpath(path, HERE))
    return out


if __name__ == "__main__":
    print(make_zip(sys.argv[1] if len(sys.argv) > 1 else "relic_io.zip"))
