//! Ragnarok Online. Spec: the RSM/RSM2 specification of RagnarokFileFormats (rdw-archive) for models, with the Ragnarok
//! part of `CORRECTIONS.md`; GRF archives follow the public descriptions of version 0x200 (see [`grf`]); palettes
//! (`.pal`) follow PAL.MD of the same repository (see [`pal`]).

pub mod grf;
pub mod pal;
pub mod rsm;
pub mod texture;
