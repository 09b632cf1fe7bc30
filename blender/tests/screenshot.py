# Renders the README's picture of an imported model (docs/blender-import.png) with Blender's Workbench:
#
#   blender --background --factory-startup --python blender/tests/screenshot.py -- MODEL OUT.png \
#       [--pythonpath SITE_DIR | --shim RELIC_BIN] [--textures DIR_OR_ARCHIVE]
import math
import os
import sys

import bpy
from mathutils import Vector

HERE = os.path.dirname(os.path.abspath(__file__))
ARGS = sys.argv[sys.argv.index("--") + 1 :]
model, out = os.path.abspath(ARGS[0]), os.path.abspath(ARGS[1])
options = dict(zip(ARGS[2::2], ARGS[3::2]))
if "--pythonpath" in options:
    sys.path.insert(0, os.path.abspath(options["--pythonpath"]))
if "--shim" in options:
    os.environ["RELIC_BIN"] = os.path.abspath(options["--shim"])
    sys.path.insert(0, os.path.join(HERE, "support"))
sys.path.insert(0, os.path.join(HERE, ".."))

bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.preferences.addon_enable(module="relic_io")
bpy.ops.import_scene.relic(filepath=model, textures=options.get("--textures", ""))

scene = bpy.context.scene
meshes = [ob for ob in scene.objects if ob.type == "MESH"]
corners = [ob.matrix_world @ Vector(c) for ob in meshes for c in ob.bound_box]
low = Vector(min(c[i] for c in corners) for i in range(3))
high = Vector(max(c[i] for c in corners) for i in range(3))
centre, size = (low + high) / 2, (high - low).length

camera = bpy.data.objects.new("camera", bpy.data.cameras.new("camera"))
scene.collection.objects.link(camera)
scene.camera = camera
direction = Vector((math.cos(math.radians(-60)), math.sin(math.radians(-60)), 0.6)).normalized()
camera.location = centre + direction * size * 1.1
camera.rotation_euler = (centre - camera.location).to_track_quat("-Z", "Y").to_euler()
camera.data.clip_start, camera.data.clip_end = size * 0.01, size * 10

scene.render.engine = "BLENDER_WORKBENCH"
scene.display.shading.light = "STUDIO"
scene.display.shading.color_type = "TEXTURE"
scene.display.shading.show_cavity = True
scene.world = bpy.data.worlds.new("world")
scene.world.color = (0.18, 0.2, 0.24)
scene.render.film_transparent = False
scene.render.resolution_x, scene.render.resolution_y = 576, 324
scene.render.resolution_percentage = 100
scene.render.image_settings.file_format = "PNG"
scene.render.image_settings.color_mode = "RGB"
scene.render.image_settings.compression = 100
scene.render.filepath = out
bpy.ops.render.render(write_still=True)
print(f"wrote {out}")
