# Makes the glTF files of this folder with Blender (Debian's 3.4: `blender --background --factory-startup
# --python-exit-code 1 --python make.py -- hand.glb OUT_DIR`), from the hand-written glTF of relic's tests
# (`relic::testing::hand_gltf::box_two_bones_glb()`), so that relic's glTF import is tested on files another
# tool wrote:
#   box_blender.glb   imported and exported again: nodes reordered (child first), TANGENT added, one index
#                     accessor shared by both meshes, the clip resampled to 25 keys at 24 fps;
#   box_skinned.glb   both boxes joined into one mesh skinned to a two-bone armature (`body`, `arm`; each
#                     vertex weighted 1 to its box's bone), the arm bone's rotation keyed like the hand file's
#                     `wave`: what a modder's rigged model looks like.
import sys

import bpy
import numpy as np

if not hasattr(np, "bool"):
    np.bool = bool  # Blender 3.4's glTF importer uses np.bool, which numpy 1.24 (Debian 12) removed.

src, out = sys.argv[sys.argv.index("--") + 1:]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=src)
bpy.ops.export_scene.gltf(filepath=f"{out}/box_blender.glb", export_format="GLB", export_tangents=True)

# The skinned variant.
body = bpy.data.objects["body"]
arm = bpy.data.objects["arm"]
# Back to the rest pose: no animation, the hand file's placements (glTF (x, y, z) is Blender (x, −z, y)).
for ob in (body, arm):
    ob.animation_data_clear()
    ob.rotation_mode = "QUATERNION"
    ob.rotation_quaternion = (1, 0, 0, 0)
body.location = (0, 0, 0)
arm.location = (0.5, 0, 1)
bpy.context.view_layer.update()
for ob, group in ((body, "body"), (arm, "arm")):
    vg = ob.vertex_groups.new(name=group)
    vg.add(list(range(len(ob.data.vertices))), 1.0, "REPLACE")
# Apply the arm's placement under the body, then join into one mesh.
world = arm.matrix_world.copy()
arm.parent = None
arm.matrix_world = world
bpy.ops.object.select_all(action="DESELECT")
body.select_set(True)
arm.select_set(True)
bpy.context.view_layer.objects.active = body
bpy.ops.object.join()
mesh = bpy.context.view_layer.objects.active
mesh.name = "boxes"
bpy.ops.object.armature_add(enter_editmode=True, location=(0, 0, 0))
rig = bpy.context.active_object
rig.name = "rig"
bones = rig.data.edit_bones
root = bones[0]
root.name = "body"
root.head = (0, 0, 0)
root.tail = (0, 0, 1)  # Blender is Z-up: glTF (0.5, 1, 0) is Blender (0.5, 0, 1).
child = bones.new("arm")
child.head = (0.5, 0, 1)
child.tail = (0.5, 0, 1.5)
child.parent = root
bpy.ops.object.mode_set(mode="OBJECT")
mesh.parent = rig
modifier = mesh.modifiers.new("rig", "ARMATURE")
modifier.object = rig
bpy.context.view_layer.objects.active = rig
bpy.ops.object.mode_set(mode="POSE")
pose = rig.pose.bones["arm"]
pose.rotation_mode = "QUATERNION"
scene = bpy.context.scene
scene.render.fps = 24
import math

for frame, angle in ((0, 0.0), (12, 90.0), (24, 0.0)):
    # 0°, 90°, 0° about the bone's own Z axis (its space, not the world's): any rotation serves the test.
    pose.rotation_quaternion = (math.cos(math.radians(angle) / 2), 0, 0, math.sin(math.radians(angle) / 2))
    pose.keyframe_insert("rotation_quaternion", frame=frame)
action = rig.animation_data.action
action.name = "wave"
bpy.ops.object.mode_set(mode="OBJECT")
bpy.ops.export_scene.gltf(filepath=f"{out}/box_skinned.glb", export_format="GLB", export_tangents=False)
