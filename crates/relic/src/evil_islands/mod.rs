//! Evil Islands: Curse of the Lost Soul (Nival, 2000). Spec: the Evil Islands specification ("how the resources of the
//! game Cursed Earth are arranged", 2018), with the Evil Islands part of `CORRECTIONS.md`.

pub mod adb;
pub mod anm;
pub mod bon;
pub mod cam;
pub mod db;
pub mod fig;
pub mod lnk;
pub mod mmp;
pub mod mob;
pub mod model;
pub mod mp;
pub mod reg;
pub mod res;
pub mod sec;
