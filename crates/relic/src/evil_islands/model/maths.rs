//! Transforms and key resampling for the glTF import ([`super::import`]): column-major 4×4 matrices in
//! f64, quaternions (x, y, z, w), and keys resampled at the game's 15 frames per second (linear, slerp for
//! rotations, step for STEP), counted against the import's limits.

use crate::asset::{Interpolation, Transform};
use crate::error::{Error, Result};
use crate::evil_islands::res;

use super::scene::FRAMES_PER_SECOND;

/// Resampled keys of one channel (two hours at 15 per second).
pub(super) const MAX_FRAMES: usize = 108_000;
/// Resampled keys (rotations, translations, morphing frames) over all clips and parts.
pub(super) const MAX_KEYS: usize = 1 << 22;

// ---------------------------------------------------------------------------------------------------------
// Small linear algebra (column-major 4×4, quaternions x, y, z, w).

pub(super) type M4 = [f64; 16];
pub(super) const IDENTITY: M4 = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];

pub(super) fn mat_mul(a: &M4, b: &M4) -> M4 {
    let mut out = [0.0; 16];
    for c in 0..4 {
        for r in 0..4 {
            out[c * 4 + r] = (0..4).map(|k| a[k * 4 + r] * b[c * 4 + k]).sum();
        }
    }
    out
}

pub(super) fn trs_matrix(t: [f32; 3], q: [f32; 4], s: [f32; 3]) -> M4 {
    let [x, y, z, w] = q.map(f64::from);
    let r = [
        1.0 - 2.0 * (y * y + z * z),
        2.0 * (x * y + z * w),
        2.0 * (x * z - y * w),
        2.0 * (x * y - z * w),
        1.0 - 2.0 * (x * x + z * z),
        2.0 * (y * z + x * w),
        2.0 * (x * z + y * w),
        2.0 * (y * z - x * w),
        1.0 - 2.0 * (x * x + y * y),
    ];
    let s = s.map(f64::from);
    let mut m = IDENTITY;
    for c in 0..3 {
        for row in 0..3 {
            m[c * 4 + row] = r[c * 3 + row] * s[c];
        }
    }
    m[12] = f64::from(t[0]);
    m[13] = f64::from(t[1]);
    m[14] = f64::from(t[2]);
    m
}

pub(super) fn local_matrix(t: &Transform) -> M4 {
    match t {
        Transform::Matrix(m) => m.map(f64::from),
        Transform::Trs { translation, rotation, scale } => trs_matrix(*translation, *rotation, *scale),
    }
}

/// `m · (x, y, z, w)` for the first three rows.
pub(super) fn apply(m: &M4, v: [f32; 3], w: f64) -> [f64; 3] {
    let v = v.map(f64::from);
    [0, 1, 2].map(|r| m[r] * v[0] + m[4 + r] * v[1] + m[8 + r] * v[2] + m[12 + r] * w)
}

pub(super) fn is_identity_linear(m: &M4) -> bool {
    (0..3).all(|c| (0..3).all(|r| m[c * 4 + r] == if c == r { 1.0 } else { 0.0 }))
}

pub(super) fn det3(m: &M4) -> f64 {
    m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) + m[8] * (m[1] * m[6] - m[5] * m[2])
}

/// The cofactor matrix of the linear part (normals transform by it; `det · inverse transpose`), as a
/// 4×4 without translation, sign-corrected so that normals keep their side under a mirror.
pub(super) fn normal_matrix(m: &M4) -> M4 {
    let a = |c: usize, r: usize| m[c * 4 + r];
    let mut out = IDENTITY;
    for c in 0..3 {
        for r in 0..3 {
            let (r1, r2) = ((r + 1) % 3, (r + 2) % 3);
            let (c1, c2) = ((c + 1) % 3, (c + 2) % 3);
            out[c * 4 + r] = a(c1, r1) * a(c2, r2) - a(c2, r1) * a(c1, r2);
        }
    }
    if det3(m) < 0.0 {
        for c in 0..3 {
            for r in 0..3 {
                out[c * 4 + r] = -out[c * 4 + r];
            }
        }
    }
    out
}

/// The rotation of a linear map (columns made orthonormal; a mirror's flipped axis turned back).
pub(super) fn rotation_of(m: &M4) -> [f64; 4] {
    if is_identity_linear(m) {
        return [0.0, 0.0, 0.0, 1.0];
    }
    let col = |c: usize| [m[c * 4], m[c * 4 + 1], m[c * 4 + 2]];
    let norm = |v: [f64; 3]| {
        let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        if l > 0.0 && l.is_finite() {
            v.map(|x| x / l)
        } else {
            v
        }
    };
    let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let x = norm(col(0));
    let y0 = col(1);
    let d = dot(x, y0);
    let y = norm([y0[0] - d * x[0], y0[1] - d * x[1], y0[2] - d * x[2]]);
    let z = [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]];
    // Rotation matrix (columns x, y, z) to quaternion.
    let (m00, m11, m22) = (x[0], y[1], z[2]);
    let trace = m00 + m11 + m22;
    let q = if trace > 0.0 {
        let s = (trace + 1.0).sqrt() * 2.0;
        [(y[2] - z[1]) / s, (z[0] - x[2]) / s, (x[1] - y[0]) / s, 0.25 * s]
    } else if m00 > m11 && m00 > m22 {
        let s = (1.0 + m00 - m11 - m22).sqrt() * 2.0;
        [0.25 * s, (y[0] + x[1]) / s, (z[0] + x[2]) / s, (y[2] - z[1]) / s]
    } else if m11 > m22 {
        let s = (1.0 + m11 - m00 - m22).sqrt() * 2.0;
        [(y[0] + x[1]) / s, 0.25 * s, (z[1] + y[2]) / s, (z[0] - x[2]) / s]
    } else {
        let s = (1.0 + m22 - m00 - m11).sqrt() * 2.0;
        [(z[0] + x[2]) / s, (z[1] + y[2]) / s, 0.25 * s, (x[1] - y[0]) / s]
    };
    if q.iter().all(|c| c.is_finite()) {
        q
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

pub(super) fn q_mul(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

pub(super) fn q_conj(q: [f64; 4]) -> [f64; 4] {
    [-q[0], -q[1], -q[2], q[3]]
}

pub(super) fn is_identity_q(q: [f64; 4]) -> bool {
    q == [0.0, 0.0, 0.0, 1.0]
}

/// `a · q · b` skipping identities, so that relic's own keys pass unchanged.
pub(super) fn q_sandwich(a: [f64; 4], q: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    let mut out = q;
    if !is_identity_q(b) {
        out = q_mul(out, b);
    }
    if !is_identity_q(a) {
        out = q_mul(a, out);
    }
    out
}

// ---------------------------------------------------------------------------------------------------------
// Resampling

/// The index of the key at or before `t` and the fraction towards the next one.
pub(super) fn locate(times: &[f32], t: f32) -> (usize, f32) {
    let after = times.partition_point(|&k| k <= t);
    if after == 0 {
        return (0, 0.0);
    }
    let i = after - 1;
    match (times.get(i), times.get(i + 1)) {
        (Some(&a), Some(&b)) if b > a && t > a => (i, ((t - a) / (b - a)).clamp(0.0, 1.0)),
        _ => (i, 0.0),
    }
}

/// Frames of a channel whose last key is at `last` seconds: keys at k/15 from 0 to it.
pub(super) fn frame_count(times: &[f32], what: &str) -> Result<usize> {
    let last = times.last().copied().unwrap_or(0.0).max(0.0);
    let n = (f64::from(last) * f64::from(FRAMES_PER_SECOND)).round() + 1.0;
    if !n.is_finite() || n > MAX_FRAMES as f64 {
        return Err(Error::limit(
            res::FORMAT_ID,
            what,
            0,
            format!("lasts {last} s: over the {MAX_FRAMES} frames at 15 per second a clip may have"),
        ));
    }
    Ok(n as usize)
}

/// Counts resampled keys against [`MAX_KEYS`] (a few long channels must not make gigabytes of keys).
pub(super) fn charge(total: &mut usize, k: usize) -> Result<()> {
    *total = total.saturating_add(k);
    if *total > MAX_KEYS {
        return Err(Error::limit(
            res::FORMAT_ID,
            "animations",
            0,
            format!("more than {MAX_KEYS} keys at 15 per second over all clips and parts"),
        ));
    }
    Ok(())
}

pub(super) fn frame_time(k: usize) -> f32 {
    k as f32 / FRAMES_PER_SECOND
}

pub(super) fn sample_vec3(times: &[f32], values: &[[f32; 3]], interp: Interpolation, t: f32) -> [f32; 3] {
    let (i, f) = locate(times, t);
    let a = values.get(i).or(values.last()).copied().unwrap_or([0.0; 3]);
    if f == 0.0 || interp == Interpolation::Step {
        return a;
    }
    let b = values.get(i + 1).copied().unwrap_or(a);
    [0, 1, 2].map(|c| a[c] + (b[c] - a[c]) * f)
}

pub(super) fn sample_quat(times: &[f32], values: &[[f32; 4]], interp: Interpolation, t: f32) -> [f64; 4] {
    let (i, f) = locate(times, t);
    let a = values.get(i).or(values.last()).copied().unwrap_or([0.0, 0.0, 0.0, 1.0]).map(f64::from);
    if f == 0.0 || interp == Interpolation::Step {
        return a;
    }
    let mut b = values.get(i + 1).copied().map_or(a, |b| b.map(f64::from));
    let f = f64::from(f);
    let mut dot: f64 = (0..4).map(|c| a[c] * b[c]).sum();
    if dot < 0.0 {
        b = b.map(|c| -c);
        dot = -dot;
    }
    let (wa, wb) = if dot > 0.9995 {
        (1.0 - f, f)
    } else {
        let theta = dot.clamp(-1.0, 1.0).acos();
        let s = theta.sin();
        (((1.0 - f) * theta).sin() / s, (f * theta).sin() / s)
    };
    let q = [0, 1, 2, 3].map(|c| a[c] * wa + b[c] * wb);
    let len = q.iter().map(|c| c * c).sum::<f64>().sqrt();
    if len > 0.0 && len.is_finite() {
        q.map(|c| c / len)
    } else {
        a
    }
}

pub(super) fn sample_weights(times: &[f32], values: &[Vec<f32>], interp: Interpolation, t: f32) -> Vec<f32> {
    let (i, f) = locate(times, t);
    let a = values.get(i).or(values.last()).cloned().unwrap_or_default();
    if f == 0.0 || interp == Interpolation::Step {
        return a;
    }
    let b = values.get(i + 1).cloned().unwrap_or_else(|| a.clone());
    a.iter().zip(b.iter().chain(std::iter::repeat(&0.0))).map(|(x, y)| x + (y - x) * f).collect()
}
