//! Evil Islands: Curse of the Lost Soul (Nival, 2000). Spec: `../shared/specs/evil-islands.txt`, with the
//! Evil Islands part of `CORRECTIONS.md`.

pub mod db;
pub mod mmp;
pub mod mob;
pub mod res;
