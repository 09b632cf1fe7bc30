//! Ragnarok Online. Spec: the RSM/RSM2 specification of RagnarokFileFormats (rdw-archive) for models, with the Ragnarok
//! part of `docs/formats/ragnarok.md`; GRF archives follow the public descriptions of version 0x200 (see [`grf`]); palettes
//! (`.pal`) follow PAL.MD of the same repository (see [`pal`]); sprites and actions SPR.MD and ACT.MD with the
//! public loaders (see [`spr`], [`act`]); map grounds GND.MD (see [`gnd`]), altitude maps GAT.MD (see [`gat`]),
//! map scenes (`.rsw`) the public loaders, RSW.MD having no layout (see [`rsw`]), and how map coordinates
//! become glTF's in [`world`].
//!
//! Each format's document type, by format id: `read(&bytes)` parses a file as the registry's codec does, and
//! `to_bytes()` writes it back (the same bytes when nothing was edited).
//!
//! | Format id | Document type | What `read` gives |
//! |---|---|---|
//! | `ro-grf` | [`grf::Grf`] (owned: [`grf::GrfDocument`]) | [`grf::Grf::read`]: the header and file table, entry data borrowed and inflated when read |
//! | `ro-rsm` | [`rsm::Rsm`] | the model: meshes, textures, key frames, volume boxes |
//! | `ro-rsw` | [`rsw::Rsw`] | the map scene: file names, water, light, placed models, lights, sounds, effects, quadtree |
//! | `ro-texture` | [`texture::Texture`] | the checked BMP or TGA header and the file's bytes |
//! | `ro-pal` | [`pal::RoPalette`] | the 256 colours and their fourth bytes |
//! | `ro-spr` | [`spr::Spr`] | palette frames (stored, RLE kept), RGBA frames, the palette |
//! | `ro-act` | [`act::Act`] | actions, motions, layers, anchors, events, delays |
//! | `ro-gnd` | [`gnd::Gnd`] | the ground: cubes, surfaces, textures, lightmaps, water (1.8+) |
//! | `ro-gat` | [`gat::Gat`] | the map's cells: four corner heights and a type each |
//! | `ro-table` | [`table::Table`] | a client text table (`data\*.txt`): its text, decoded from CP949 |
//! | `ro-imf` | [`imf::Imf`] | a layer order (`data\imf\*.imf`): per layer, action and frame a priority and two coordinates |

pub mod act;
pub mod gat;
pub mod gnd;
pub mod grf;
pub mod imf;
pub mod pal;
pub mod rsm;
pub mod rsw;
pub mod spr;
pub mod table;
pub mod texture;
pub mod version;
pub mod world;
