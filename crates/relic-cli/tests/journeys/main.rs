//! What a user does with each game's files, end to end through the `relic` binary: convert, edit what was
//! written, pack it back (glTF models included), and find the result in the file.
//! One binary: each module is a former test file.

#[path = "../common/mod.rs"]
mod common;

mod dark_reign_journey;
mod drakan_journey;
mod ei_anm_bon_journey;
mod ei_db_spreadsheet_journey;
mod freerct_mmp_journey;
mod freerct_recolour_journey;
mod gltf_pack_drakan;
mod gltf_pack_ei;
mod gltf_pack_hostile;
mod gltf_pack_rsm;
mod gltf_pack_safety;
mod ro_act_journey;
mod ro_map_journey;
mod ro_spr_journey;
mod ro_table_journey;
mod tables_journey;
mod view_root_journey;
