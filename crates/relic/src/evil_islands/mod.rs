//! Evil Islands: Curse of the Lost Soul (Nival, 2000). Spec: the Evil Islands specification ("how the resources of the
//! game Cursed Earth are arranged", 2018), with docs/formats/evil-islands.md.
//!
//! Each format's document type, by format id: `read(&bytes)` parses a file as the registry's codec does, and
//! `to_bytes()` writes it back (the same bytes when nothing was edited).
//!
//! | Format id | Document type | What `read` gives |
//! |---|---|---|
//! | `ei-res` | [`res::Res`] (owned: [`res::ResDocument`]) | the archive's table, names and entry data, borrowed from the bytes |
//! | `ei-reg` | [`reg::Reg`] | sections and typed keys, with their hash-table slots |
//! | `ei-cam` | [`cam::Cam`] | the camera keys (time, position, rotation) |
//! | `ei-mmp` | [`mmp::Mmp`] (owned: [`mmp::MmpDocument`]) | the header and each mip level's stored bytes, borrowed |
//! | `ei-db` | [`db::DbDocument`] | the node tree: tables, records, decoded fields (`read_named` picks the layouts by file name) |
//! | `ei-adb` | [`adb::Adb`] | the unit's animation records |
//! | `ei-mob` | [`mob::Mob`] | the level's node tree, payloads typed, the script deciphered |
//! | `ei-lnk` | [`lnk::Lnk`] | the links (part, parent) |
//! | `ei-bon` | [`bon::Bon`] | one part's offsets per morph extreme |
//! | `ei-fig` | [`fig::Fig`] | a part's mesh: positions per morph, normals, texture coordinates, indices |
//! | `ei-anm` | [`anm::Anm`] | one part's rotations, translations and morphing frames |
//! | `ei-mp` | [`mp::Mp`] | the map header: sectors, atlases, materials, tile types |
//! | `ei-sec` | [`sec::Sec`] | one sector's land (and water) vertices and tiles |

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

pub use model::FigureSettings;
