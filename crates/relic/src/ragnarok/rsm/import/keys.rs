//! Key frames of the glTF → RSM writer ([`super`]): samples in seconds to keys in whole milliseconds or
//! frames, with jumps, leading and trailing holds handled.

use glam::{DMat3, DMat4, DQuat, DVec3};

use super::limit;
use crate::error::Result;

/// Samples `(seconds, value)` as keys in whole units (`per_second` units a second). `default`: the value
/// RSM holds before the first key (2.x), so that a leading hold of it is left out; jumps within half a
/// unit become a key one unit earlier holding the old value; a trailing hold is left out.
pub(super) fn keys<T: Copy>(
    samples: Vec<(f64, T)>,
    per_second: f64,
    default: Option<T>,
    eq: impl Fn(&T, &T) -> bool,
    what: &str,
) -> Result<Vec<(i32, T)>> {
    whole_units(samples, per_second, default, eq, true, what)
}

/// The keys of a channel relic's own export wrote (its node's extras mark the keys it added, see
/// [`crate::ragnarok::rsm::scene`]): every sample is a key of the file, except a marked one that holds
/// what RSM gives at its time anyway (`default` before the first key, when given, else the first key's
/// value; the last key's value after the last; the interpolation of its neighbours between). A marked
/// key whose time or value a user changed is no longer that, and stays. No other hold is left out, so an
/// unedited channel gives the file's keys back, one for one.
pub(super) fn exact_keys<T: Copy>(
    samples: Vec<(f64, T)>,
    added: &[f64],
    per_second: f64,
    default: Option<T>,
    lerp: impl Fn(T, T, f64) -> T,
    eq: impl Fn(&T, &T) -> bool,
    what: &str,
) -> Result<Vec<(i32, T)>> {
    let marked = |t: f64| added.iter().any(|a| (a - t).abs() <= 1e-9 * t.abs().max(1.0));
    let real: Vec<(f64, T)> = samples.iter().copied().filter(|s| !marked(s.0)).collect();
    let given = |t: f64| -> Option<T> {
        let first = real.first()?;
        if t < first.0 {
            return Some(default.unwrap_or(first.1));
        }
        let after = real.partition_point(|k| k.0 <= t);
        let (a, b) = (real.get(after.checked_sub(1)?)?, real.get(after));
        Some(match b {
            Some(b) if b.0 > a.0 => lerp(a.1, b.1, (t - a.0) / (b.0 - a.0)),
            _ => a.1,
        })
    };
    let kept: Vec<(f64, T)> =
        samples.into_iter().filter(|s| !marked(s.0) || !given(s.0).is_some_and(|v| eq(&v, &s.1))).collect();
    whole_units(kept, per_second, default, eq, false, what)
}

/// Samples as keys in whole units; `trim` leaves out leading holds of `default` and trailing holds.
fn whole_units<T: Copy>(
    samples: Vec<(f64, T)>,
    per_second: f64,
    default: Option<T>,
    eq: impl Fn(&T, &T) -> bool,
    trim: bool,
    what: &str,
) -> Result<Vec<(i32, T)>> {
    let mut s = samples;
    if let Some(d) = default.filter(|_| trim) {
        let mut skip = 0;
        while let (Some(a), Some(b)) = (s.get(skip), s.get(skip + 1)) {
            if !(eq(&a.1, &d) && (eq(&b.1, &d) || (b.0 - a.0) * per_second < 0.5)) {
                break;
            }
            skip += 1;
        }
        s.drain(..skip);
    }
    let mut out: Vec<(i32, T)> = Vec::with_capacity(s.len() + 2);
    for (t, v) in s {
        let units = (t * per_second).round();
        if !(0.0..=f64::from(i32::MAX)).contains(&units) {
            return Err(limit(what, format!("key time {t} s is past the int32 key times of RSM")));
        }
        let f = units as i32;
        match out.last().copied() {
            Some((last_f, last_v)) if last_f >= f => {
                // A jump: the old value one unit before, the new one at the key.
                let before = out.len().checked_sub(2).and_then(|i| out.get(i)).map(|k| k.0);
                if let Some(last) = out.last_mut() {
                    *last = (last_f, v);
                }
                if before.is_some_and(|b| b < last_f - 1) && !eq(&last_v, &v) {
                    let at = out.len() - 1;
                    out.insert(at, (last_f - 1, last_v));
                }
            }
            _ => out.push((f, v)),
        }
    }
    while trim && out.len() >= 2 && eq(&out[out.len() - 1].1, &out[out.len() - 2].1) {
        out.pop();
    }
    if let (Some(d), [(_, only)], true) = (default, out.as_slice(), trim) {
        if eq(only, &d) {
            out.clear();
        }
    }
    Ok(out)
}

pub(super) fn vec_eq(a: &DVec3, b: &DVec3) -> bool {
    (*a - *b).abs().max_element() <= 1e-6 * a.abs().max_element().max(1.0)
}

pub(super) fn quat_eq(a: &DQuat, b: &DQuat) -> bool {
    a.dot(*b).abs() >= 1.0 - 1e-12
}

pub(super) fn near_identity(m: DMat4) -> bool {
    m.to_cols_array().iter().zip(DMat4::IDENTITY.to_cols_array()).all(|(a, b)| (a - b).abs() < 1e-9)
}

pub(super) fn mat9(m: DMat4) -> [f32; 9] {
    DMat3::from_mat4(m).to_cols_array().map(|x| x as f32)
}

pub(super) fn union(lists: &[&Vec<f64>]) -> Vec<f64> {
    let mut v: Vec<f64> = lists.iter().flat_map(|l| l.iter().copied()).collect();
    v.sort_by(f64::total_cmp);
    v.dedup();
    v
}
