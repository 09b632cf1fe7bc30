//! Ragnarok map coordinates to glTF: the one place that says how a point of a map (GND ground, RSW objects,
//! lights, sounds, effects, water) becomes a glTF position.
//!
//! # The Ragnarok world frame
//!
//! Every map file shares one frame, in the files' own units (docs/formats/ragnarok.md#world-frame: "RSW positions and GND heights
//! share one Y-down frame"):
//!
//! - **X** grows east with the GND column, **Z** grows north with the GND row (row 0 is the south edge, as
//!   GAT row 0 is map `y = 0`, the bottom of the minimap); one GND cell is `zoom` units wide (the GND
//!   header's `zoom`, 10 in every real file; one GAT tile is half a cell).
//! - **Y** points **down**: a GND corner height or an RSW position's y is smaller the higher the point is
//!   (hills have negative heights).
//! - RSW positions are relative to the **map centre**: an object at RSW (0, 0, 0) stands at the middle of the
//!   ground. roBrowser adds `(width, 0, height)` to an object position in its units of `zoom / 5` (its
//!   cells are 2 units, so that is half the ground), BrowEdit3 adds `5·width` and `5·height` (file units,
//!   zoom 10) before its own axis flips; both put RSW `(0, y, 0)` at the ground's centre.
//!
//! So ground corner `(x, r)` (column `x`, row `r`, `0 ≤ x ≤ width`, `0 ≤ r ≤ height`) with height `h` is the
//! world point `(x·zoom − width·zoom/2, h, r·zoom − height·zoom/2)`. BrowEdit3 draws that corner at
//! `(10x, −h, 10·(height − r) + 10)` and an object at `(5·width + px, −py, 10 + 5·height − pz)`: subtracting
//! its own origin `(5·width, 0, 5·height + 10)` from both gives exactly this frame under the axis change
//! below. The loaders hard-code zoom 10 for the centre offset; relic uses the file's `zoom`, which is the
//! same for every real file (a map with another zoom is unsettled).
//!
//! # To glTF
//!
//! glTF is Y-up and right-handed, in the same units (relic keeps the file's units: one cell = `zoom` = 10
//! units; divide by 5 for GAT tiles, or by `zoom` for cells; glTF readers take them as metres, so a field
//! of 400 cells is 4 km wide). [`ro_to_gltf`] maps `(x, y, z)` to `(x, −y, −z)`:
//! up becomes +Y, east stays +X and north becomes −Z, which is the right-handed view from above
//! (+X right, −Z up the screen). It is a rotation (half a turn about X, determinant +1), not a mirror, so
//! the map reads as the minimap does, and nothing on it is mirrored by this step.
//!
//! # Placing an RSM model (for the RSW conversion)
//!
//! The client places a model with (roBrowser `createInstance`, BrowEdit3 `RsmRenderer`, both in the world
//! frame above): `M = T(p)·Rz(rz)·Rx(rx)·Ry(ry)·S(scale)` (angles in degrees, applied Y first, then X,
//! then Z; `p` the RSW position, relative to the centre), times the model in its own frame: for RSM 1.x
//! the model centred as docs/formats/ragnarok.md#rsm-transforms-1x says (Y-down, bottom at y = 0), for 2.2+ `S(1, −1, 1)` times the
//! Y-up model (roBrowser's `flip`) lifted by its bounding box.
//!
//! relic's RSM conversion ([`crate::ragnarok::rsm::scene`]) already turns the model into glTF's Y-up:
//! 1.x as `S(1, −1, 1)·(centred model)`, 2.2+ as stored (file space Y-up). In both families, then, the
//! client's model frame is `S(1, −1, 1)` times relic's scene, so the node that holds relic's RSM scene
//! must carry
//!
//! `F · M · S(1, −1, 1)` with `F = diag(1, −1, −1)` (this module's axis change),
//!
//! which is, written with glTF rotations (conjugating by `F`, a half turn about X, reverses Y and Z):
//!
//! `T(ro_to_gltf(p)) · Rz(−rz) · Rx(rx) · Ry(−ry) · S(scale) · S(1, 1, −1)`
//!
//! (BrowEdit3 has the same rotation signs: `−rz`, `−rx`, `+ry` in its own Y-up, Z-mirrored frame). See
//! [`model_matrix`]. The trailing `S(1, 1, −1)` mirrors (negative determinant): glTF then flips the
//! winding rule for that node, so faces that face out in relic's RSM scene still face out and nothing
//! is turned inside out; the model stands upright (its +Y stays up, scale·(0, 1, 0) → +Y). It also means
//! a model on the map is the mirror image (front to back, Z) of the same model converted alone: the map
//! is the client's arrangement (a door faces the road it faces in the game); relic's lone-model glTF
//! mirrors 1.x with `S(1, −1, 1)` where the map frame implies the half turn `F` — see the report of
//! issue 27. The 2.2+ lift (roBrowser: `offset`, `box.range[1]`, `box.offset`) is the RSW conversion's
//! to add inside `M`.

/// The Ragnarok world frame (Y down, Z north, file units) to glTF (Y up, −Z north, same units): a half
/// turn about X, `(x, y, z) → (x, −y, −z)`.
///
/// ```
/// use relic::ragnarok::world::ro_to_gltf;
/// // 10 units above the ground (Y-down: −10) and one cell north of the centre.
/// assert_eq!(ro_to_gltf([0.0, -10.0, 10.0]), [0.0, 10.0, -10.0]);
/// ```
pub fn ro_to_gltf(p: [f32; 3]) -> [f32; 3] {
    [p[0], -p[1], -p[2]]
}

/// The Ragnarok world point (Y down, relative to the map centre, file units) of GND corner `(x, y)`:
/// column `x` (east) and row `y` (north) of the corner grid, `0..=width` and `0..=height`, at `height`
/// (the GND corner height, Y-down).
pub fn cell_corner_ro(gnd_width: u32, gnd_height: u32, zoom: f32, x: f32, y: f32, height: f32) -> [f32; 3] {
    let half_w = gnd_width as f32 * zoom / 2.0;
    let half_h = gnd_height as f32 * zoom / 2.0;
    [x * zoom - half_w, height, y * zoom - half_h]
}

/// GND corner `(x, y)` (column east, row north; `0..=width`, `0..=height`) at GND corner height `height`
/// (Y-down, as stored), in glTF space: `(x·zoom − width·zoom/2, −height, height_cells·zoom/2 − y·zoom)`.
///
/// A cell `(x, y)` spans corners `x..=x+1` and `y..=y+1`; its four stored heights are the corners
/// `(x, y)`, `(x+1, y)`, `(x, y+1)`, `(x+1, y+1)` in that order (GND.MD: bottom left, bottom right,
/// top left, top right; roBrowser and BrowEdit3 agree).
///
/// ```
/// use relic::ragnarok::world::cell_corner;
/// // A 4 × 2 ground, zoom 10: corner (0, 0) is the south-west corner, 20 units west and 10 south
/// // (+Z) of the centre; a height of −5 (Y-down) is 5 units up.
/// assert_eq!(cell_corner(4, 2, 10.0, 0, 0, -5.0), [-20.0, 5.0, 10.0]);
/// assert_eq!(cell_corner(4, 2, 10.0, 4, 2, 0.0), [20.0, -0.0, -10.0]);
/// ```
pub fn cell_corner(gnd_width: u32, gnd_height: u32, zoom: f32, x: u32, y: u32, height: f32) -> [f32; 3] {
    ro_to_gltf(cell_corner_ro(gnd_width, gnd_height, zoom, x as f32, y as f32, height))
}

/// The glTF node matrix (column-major, as [`crate::asset::Transform::Matrix`]) that places relic's RSM
/// scene of a model as the client places an RSW object: position `p` (RSW, relative to the map centre,
/// Y-down), rotation `r` in degrees (x, y, z as stored), `scale`. `T(ro_to_gltf(p))·Rz(−rz)·Rx(rx)·
/// Ry(−ry)·S(scale)·S(1, 1, −1)`; see the module documentation for the derivation. The 2.2+ lift by
/// the bounding box is not included.
///
/// ```
/// use relic::ragnarok::world::model_matrix;
/// let m = model_matrix([10.0, -2.0, 30.0], [0.0, 0.0, 0.0], [1.0, 1.0, 1.0]);
/// // Translation column: east 10, up 2, north 30 (−Z).
/// assert_eq!(&m[12..15], &[10.0, 2.0, -30.0]);
/// // Up stays up, and the model's Z is mirrored.
/// assert_eq!(m[5], 1.0);
/// assert_eq!(m[10], -1.0);
/// ```
pub fn model_matrix(p: [f32; 3], r: [f32; 3], scale: [f32; 3]) -> [f32; 16] {
    use glam::{Mat4, Vec3};
    let t = Mat4::from_translation(Vec3::from_array(ro_to_gltf(p)));
    let rz = Mat4::from_rotation_z(-r[2].to_radians());
    let rx = Mat4::from_rotation_x(r[0].to_radians());
    let ry = Mat4::from_rotation_y(-r[1].to_radians());
    let s = Mat4::from_scale(Vec3::from_array(scale));
    let mirror = Mat4::from_scale(Vec3::new(1.0, 1.0, -1.0));
    (t * rz * rx * ry * s * mirror).to_cols_array()
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Mat4, Vec3};

    /// `model_matrix` is `F·M·S(1,−1,1)` with M built in the Ragnarok frame as roBrowser builds it.
    #[test]
    fn model_matrix_is_the_conjugated_client_matrix() {
        let (p, r, s) = ([3.0, -4.0, 5.0], [10.0f32, 20.0f32, 30.0f32], [1.0, 2.0, 3.0]);
        let f = Mat4::from_scale(Vec3::new(1.0, -1.0, -1.0));
        let m = Mat4::from_translation(Vec3::from_array(p))
            * Mat4::from_rotation_z(r[2].to_radians())
            * Mat4::from_rotation_x(r[0].to_radians())
            * Mat4::from_rotation_y(r[1].to_radians())
            * Mat4::from_scale(Vec3::from_array(s));
        let expected = f * m * Mat4::from_scale(Vec3::new(1.0, -1.0, 1.0));
        let got = Mat4::from_cols_array(&model_matrix(p, r, s));
        assert!(got.abs_diff_eq(expected, 1e-5), "{got:?} vs {expected:?}");
    }

    #[test]
    fn corner_and_object_share_the_centre() {
        // An object at RSW (0, h, 0) stands over the middle corner of a 2 × 2 ground.
        let corner = cell_corner(2, 2, 10.0, 1, 1, -3.0);
        assert_eq!(corner, ro_to_gltf([0.0, -3.0, 0.0]));
    }
}
