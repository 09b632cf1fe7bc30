# relic's Blender add-on: File › Import / Export › "relic: game model". Every model, map and terrain relic
# converts is imported through relic's glTF and Blender's own glTF importer, then tidied (Evil Islands morph
# extremes named as ei_figer names its morph components, one action per clip named after it, images packed
# into the .blend); the scene is exported with Blender's glTF exporter and made a game model by `relic.pack`.
# The add-on holds no format logic: it only calls the `relic` Python package (README "## Blender").

bl_info = {
    "name": "relic: game models",
    "author": "relic contributors",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "File > Import / Export > relic: game model",
    "description": "Imports and exports the models, maps and terrains of Evil Islands, Ragnarok Online and "
    "Drakan through the relic Python package",
    "category": "Import-Export",
}

import os
import sys
import tempfile
import warnings

import bpy
from bpy.props import BoolProperty, EnumProperty, FloatVectorProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

# The files the import offers: what relic converts to a glTF scene.
IMPORT_EXTENSIONS = (".mod", ".rsm", ".rsm2", ".rsw", ".gnd", ".lvl", ".mp", ".mpr", ".sec")

# relic names a figure's 8 morph extremes `extreme0` … `extreme7`, in the FIG's order; ei_figer names the same
# 8 morph components (its collections) so, in the same order: the base, strength and dexterity extremes, the
# "unique" one (both), then the four of them scaled (the tall figure). Which of strength and dexterity the
# extremes 1 and 2 are is unsettled between public readers: relic's --morph reads extreme 1 as dexterity, so
# the names follow ei_figer (what its users expect), not the import panel's STR/DEX.
EI_MORPH_NAMES = ("base", "str", "dex", "unique", "base(scaled)", "str(scaled)", "dex(scaled)", "unique(scaled)")


def relic_module(context=None):
    """The `relic` package, from the add-on preference's folder when one is set (a `pip install --target`
    folder for Blender's own Python), else from Blender's `sys.path`."""
    prefs = addon_prefs(context)
    folder = bpy.path.abspath(prefs.package_path) if prefs is not None and prefs.package_path else ""
    if folder and folder not in sys.path:
        sys.path.insert(0, folder)
    import relic  # noqa: PLC0415 (imported when used, so the add-on registers without it)

    return relic


def addon_prefs(context=None):
    context = context or bpy.context
    addon = context.preferences.addons.get(__name__)
    return addon.preferences if addon is not None else None


def restore_np_bool():
    """Blender 3.4's glTF importer uses `np.bool`, which numpy 1.24 (Debian 12) removed."""
    try:
        import numpy as np  # noqa: PLC0415
    except ImportError:
        return
    if "bool" not in np.__dict__:  # (hasattr warns on numpy 1.20–1.23)
        np.bool = bool


class RelicPreferences(bpy.types.AddonPreferences):
    bl_idname = __name__

    package_path: StringProperty(
        name="relic package folder",
        description="A folder holding the relic Python package (`pip install --target DIR relic-*.whl`), "
        "added to Blender's Python path; empty: Blender's own path",
        subtype="DIR_PATH",
        default="",
    )

    def draw(self, context):
        self.layout.prop(self, "package_path")


def glb_outputs(paths):
    """The glTF scenes among the files `relic.convert` wrote, in a stable order."""
    return sorted(p for p in paths if p.lower().endswith(".glb"))


def collection_for(context, name, parent=None):
    collection = bpy.data.collections.new(name)
    (parent or context.scene.collection).children.link(collection)
    return collection


def set_active_collection(context, collection):
    def find(layer):
        if layer.collection == collection:
            return layer
        for child in layer.children:
            found = find(child)
            if found is not None:
                return found
        return None

    layer = find(context.view_layer.layer_collection)
    if layer is not None:
        context.view_layer.active_layer_collection = layer


def tidy_shape_keys(objects, ei_names):
    """Evil Islands figures: the extremes named as ei_figer names them (`extreme1` → `str`); the relative
    keys keep Blender's `Basis` (the figure at the imported morph)."""
    renamed = 0
    for ob in objects:
        keys = ob.data.shape_keys if ob.type == "MESH" else None
        if keys is None or not ei_names:
            continue
        for block in keys.key_blocks:
            if block.name.startswith("extreme") and block.name[7:].isdigit():
                k = int(block.name[7:])
                if k < len(EI_MORPH_NAMES):
                    block.name = EI_MORPH_NAMES[k]
                    renamed += 1
    return renamed


def tidy_actions(new_actions):
    """One clip of the glTF is an action per animated object, named `<clip>_<object>` by Blender's importer;
    a clip that animates one object (a skinned character's armature) becomes an action named after the clip.
    Every action records its clip (`action["relic_clip"]`)."""
    by_clip = {}
    for action in new_actions:
        for ob in bpy.data.objects:
            ad = ob.animation_data
            if ad is None:
                continue
            tracks = [t for t in ad.nla_tracks if any(s.action == action for s in t.strips)]
            if tracks:
                by_clip.setdefault(tracks[0].name, []).append(action)
                break
            key = getattr(ob.data, "shape_keys", None) if ob.type == "MESH" else None
            kad = key.animation_data if key is not None else None
            if kad is not None:
                tracks = [t for t in kad.nla_tracks if any(s.action == action for s in t.strips)]
                if tracks:
                    by_clip.setdefault(tracks[0].name, []).append(action)
                    break
    for clip, actions in by_clip.items():
        for action in actions:
            action["relic_clip"] = clip
        if len(actions) == 1:
            actions[0].name = clip
    return by_clip


class IMPORT_SCENE_OT_relic(bpy.types.Operator, ImportHelper):
    """Import a game model, map or terrain through relic (Evil Islands .mod/.mp/.mpr/.sec, Ragnarok
    .rsm/.rsm2/.rsw/.gnd, Drakan .mod/.lvl)"""

    bl_idname = "import_scene.relic"
    bl_label = "Import game model (relic)"
    bl_options = {"REGISTER", "UNDO", "PRESET"}

    filename_ext = ".mod"
    filter_glob: StringProperty(default=";".join("*" + e for e in IMPORT_EXTENSIONS), options={"HIDDEN"})

    morph: FloatVectorProperty(
        name="Morph (STR, DEX, HEIGHT)",
        description="Evil Islands figures: the strength, dexterity and height the meshes are built at "
        "(relic's --morph); the 8 extremes become shape keys whatever it is",
        size=3,
        min=0.0,
        max=1.0,
        default=(0.0, 0.0, 0.0),
    )
    textures: StringProperty(
        name="Textures",
        description="Where textures are found when not beside the file: a folder or an archive "
        "(Ragnarok GRF, Evil Islands textures.res; relic's --textures)",
        subtype="FILE_PATH",
        default="",
    )
    ei_names: BoolProperty(
        name="ei_figer shape key names",
        description="Name an Evil Islands figure's morph extremes as ei_figer does (base, str, dex, unique, "
        "and the scaled four) instead of relic's extreme0…extreme7",
        default=True,
    )
    pack_images: BoolProperty(
        name="Pack textures",
        description="Pack the imported textures into the .blend",
        default=True,
    )

    def invoke(self, context, event):
        # Blender 4.1+: a file dropped on the 3D view (IO_FH_relic) comes with its path: ask for the options only.
        if bpy.app.version >= (4, 1, 0) and self.filepath and os.path.isfile(self.filepath):
            return context.window_manager.invoke_props_dialog(self)
        return ImportHelper.invoke(self, context, event)

    def draw(self, context):
        layout = self.layout
        layout.prop(self, "morph")
        layout.prop(self, "ei_names")
        layout.prop(self, "textures")
        layout.prop(self, "pack_images")

    def execute(self, context):
        try:
            relic = relic_module(context)
        except ImportError as err:
            self.report({"ERROR"}, f"the relic Python package is not installed ({err}); see relic's README, Blender")
            return {"CANCELLED"}
        try:
            summary = import_file(context, relic, self.filepath, self.import_options(), self.report)
        except relic.Error as err:
            self.report({"ERROR"}, str(err))
            return {"CANCELLED"}
        self.report({"INFO"}, summary)
        return {"FINISHED"}

    def import_options(self):
        return {
            "morph": tuple(self.morph),
            "textures": bpy.path.abspath(self.textures) if self.textures else None,
            "ei_names": self.ei_names,
            "pack_images": self.pack_images,
        }


def import_file(context, relic, path, options, report=None):
    """Converts `path` with relic to glTF in a temporary folder and imports each scene it wrote into a new
    collection named after the file; returns a one-line summary. Raises `relic.Error`."""
    report = report or (lambda level, message: print(message))
    restore_np_bool()
    name = os.path.basename(path)
    before_objects = set(bpy.data.objects)
    before_actions = set(bpy.data.actions)
    before_images = set(bpy.data.images)
    with tempfile.TemporaryDirectory(prefix="relic-import-") as tmp:
        with warnings.catch_warnings(record=True) as notes:
            warnings.simplefilter("always")
            written = relic.convert(
                path,
                tmp,
                to="glb",
                force=True,
                textures=options.get("textures"),
                morph=options.get("morph"),
            )
        for note in notes:
            report({"WARNING"}, str(note.message))
        scenes = glb_outputs(written)
        if not scenes:
            raise relic.Error(f"{name}: relic wrote no glTF scene (files: {', '.join(map(os.path.basename, written))})")
        top = collection_for(context, name)
        for glb in scenes:
            target = top
            if len(scenes) > 1:
                stem = os.path.basename(glb)
                for suffix in (".glb", ".view"):
                    stem = stem[: -len(suffix)] if stem.endswith(suffix) else stem
                target = collection_for(context, stem, top)
            set_active_collection(context, target)
            existing = set(bpy.data.objects)
            bpy.ops.import_scene.gltf(filepath=glb)
            # Blender 3.4's importer links to the scene's own collection, whatever is active: move them.
            for ob in bpy.data.objects:
                if ob not in existing and target not in ob.users_collection:
                    for collection in list(ob.users_collection):
                        collection.objects.unlink(ob)
                    target.objects.link(ob)
        # Images the importer loaded from files of the temporary folder would be lost with it.
        new_images = [img for img in bpy.data.images if img not in before_images]
        if options.get("pack_images", True):
            for img in new_images:
                if img.packed_file is None and img.source == "FILE":
                    img.pack()
    new_objects = [ob for ob in bpy.data.objects if ob not in before_objects]
    new_actions = [a for a in bpy.data.actions if a not in before_actions]
    tidy_shape_keys(new_objects, options.get("ei_names", True))
    clips = tidy_actions(new_actions)
    if new_actions:
        end = max(int(a.frame_range[1]) for a in new_actions)
        context.scene.frame_end = max(context.scene.frame_end if len(before_actions) else 1, end)
    meshes = sum(1 for ob in new_objects if ob.type == "MESH")
    return (
        f"{name}: {len(new_objects)} objects ({meshes} meshes), {len(clips)} clips, {len(new_images)} images "
        f"from {len(scenes)} glTF scene(s)"
    )


# What an export's extension writes: (relic format, version) — Drakan's `.mod` is the game enum's choice.
EXPORT_TARGETS = {
    ".rsm": ("ro-rsm", None),  # RSM 1.4, relic's default
    ".rsm2": ("ro-rsm", 0x203),  # RSM 2.3
}


def export_target(path, game):
    ext = os.path.splitext(path)[1].lower()
    if ext == ".mod":
        return ("drakan-srsc", None) if game == "DRAKAN" else ("ei-res", None)
    return EXPORT_TARGETS.get(ext)


class EXPORT_SCENE_OT_relic(bpy.types.Operator, ExportHelper):
    """Export the selection (or the scene) as a game model through relic: .mod (Evil Islands figure or Drakan
    static model), .rsm (Ragnarok RSM 1.4), .rsm2 (RSM 2.3)"""

    bl_idname = "export_scene.relic"
    bl_label = "Export game model (relic)"
    bl_options = {"REGISTER", "PRESET"}

    filename_ext = ".mod"
    check_extension = None  # .mod, .rsm and .rsm2 are all taken as typed
    filter_glob: StringProperty(default="*.mod;*.rsm;*.rsm2", options={"HIDDEN"})

    game: EnumProperty(
        name="Game (.mod)",
        description="Which game a .mod is written for",
        items=(
            ("EVIL_ISLANDS", "Evil Islands", "A figure: the .mod with its .bon, .anm and .mmp beside it"),
            ("DRAKAN", "Drakan", "A static model (and a .txd of its new textures beside it)"),
        ),
        default="EVIL_ISLANDS",
    )
    use_selection: BoolProperty(name="Selected only", description="Export the selected objects only", default=False)
    ei_names: BoolProperty(
        name="ei_figer shape key names",
        description="Shape keys named base, str, dex, unique and the scaled four are the figure's 8 morph "
        "extremes (written as relic's extreme0…extreme7)",
        default=True,
    )
    force: BoolProperty(
        name="Overwrite",
        description="Replace existing files (the model and the files written beside it)",
        default=True,
    )

    def draw(self, context):
        layout = self.layout
        layout.prop(self, "game")
        layout.prop(self, "use_selection")
        layout.prop(self, "ei_names")
        layout.prop(self, "force")

    def execute(self, context):
        target = export_target(self.filepath, self.game)
        if target is None:
            self.report({"ERROR"}, "relic writes .mod, .rsm and .rsm2 files: name the file with one of them")
            return {"CANCELLED"}
        try:
            relic = relic_module(context)
        except ImportError as err:
            self.report({"ERROR"}, f"the relic Python package is not installed ({err}); see relic's README, Blender")
            return {"CANCELLED"}
        try:
            result = export_file(
                context,
                relic,
                self.filepath,
                target,
                use_selection=self.use_selection,
                ei_names=self.ei_names,
                force=self.force,
            )
        except relic.Error as err:
            self.report({"ERROR"}, str(err))
            return {"CANCELLED"}
        for note in result.get("notes", []):
            # "wrote unit.bon beside it" is news; the other notes say what the game format could not hold.
            self.report({"INFO"} if note.startswith("wrote ") else {"WARNING"}, note)
        self.report({"INFO"}, f"wrote {result['output']} ({target[0]}, {result['bytes']} bytes)")
        return {"FINISHED"}


def export_file(context, relic, path, target, use_selection=False, ei_names=True, force=True):
    """Exports the scene (or the selection) with Blender's glTF exporter to a temporary GLB and packs it with
    relic as `target` (format, version); returns `relic.pack`'s result. Raises `relic.Error`."""
    fmt, version = target
    renamed = []
    if ei_names and fmt == "ei-res":
        # ei_figer's names back to relic's, for the figure's morph extremes.
        for ob in context.scene.objects:
            keys = ob.data.shape_keys if ob.type == "MESH" else None
            for block in keys.key_blocks if keys is not None else ():
                if block.name in EI_MORPH_NAMES:
                    renamed.append((block, block.name))
                    block.name = f"extreme{EI_MORPH_NAMES.index(block.name)}"
    try:
        with tempfile.TemporaryDirectory(prefix="relic-export-") as tmp:
            stem = os.path.splitext(os.path.basename(path))[0] or "model"
            glb = os.path.join(tmp, stem + ".glb")
            bpy.ops.export_scene.gltf(
                filepath=glb,
                export_format="GLB",
                use_selection=use_selection,
                # A Drakan static model has no clips (relic would drop them with a note).
                export_animations=fmt != "drakan-srsc",
                export_morph=True,
                export_skins=True,
                export_apply=False,
                # relic's glTF extras (imported as custom properties) carry what the game format holds and glTF
                # does not: a figure's bone offsets and FIG header, a Drakan model's name, id, shading and
                # texture references; written back, they make `relic.pack` keep them.
                export_extras=True,
            )
            return relic.pack(fmt, glb, path, force=force, version=version)
    finally:
        for block, name in renamed:
            block.name = name


def menu_import(self, context):
    self.layout.operator(IMPORT_SCENE_OT_relic.bl_idname, text="relic: game model (.mod .rsm .rsw .lvl .mp …)")


def menu_export(self, context):
    self.layout.operator(EXPORT_SCENE_OT_relic.bl_idname, text="relic: game model (.mod .rsm .rsm2)")


CLASSES = [RelicPreferences, IMPORT_SCENE_OT_relic, EXPORT_SCENE_OT_relic]

if bpy.app.version >= (4, 1, 0):
    # Blender 4.1+: dropping a game file on the 3D view imports it.
    class IO_FH_relic(bpy.types.FileHandler):
        bl_idname = "IO_FH_relic"
        bl_label = "relic game model"
        bl_import_operator = IMPORT_SCENE_OT_relic.bl_idname
        bl_file_extensions = ";".join(IMPORT_EXTENSIONS)

        @classmethod
        def poll_drop(cls, context):
            return context.area is not None and context.area.type == "VIEW_3D"

    CLASSES.append(IO_FH_relic)


def register():
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.TOPBAR_MT_file_import.append(menu_import)
    bpy.types.TOPBAR_MT_file_export.append(menu_export)


def unregister():
    bpy.types.TOPBAR_MT_file_export.remove(menu_export)
    bpy.types.TOPBAR_MT_file_import.remove(menu_import)
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
