//! Sequences (spec "Sequence (0x0310 - 0x0312)"): record 0x0310 (8 bytes of unknown meaning, kept raw) and
//! the STOMP sequence 0x0311: a header, then actors, each with a target and a list of timed actions.
//!
//! Action types 0, 1 and 3–8 have known layouts. Type 2 ("probably texture anims") and any other type have
//! none, so nothing after them can be located: decoding stops there, and the rest of the body (from that
//! action's type on, including any later actors) is kept raw in the actor's `undecoded`, with the counts
//! the file declared, so the record is still written back byte for byte. An actor type other than 0, 1 or
//! 2 stops decoding the same way (all three known targets are 4 bytes, but an unknown one's size is not
//! known). OpenDrakan refuses such sequences; relic keeps what it can read.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::common::{
    body_reader, count_u32, hex_is_empty, read_f32, read_floats, rest, FlagNames, Flags, Name, Put, Vec3, F32,
};
use super::Ref;
use crate::bytes::{Base64, Hex};
use crate::error::Result;
use crate::reader::Reader;

// ---------------------------------------------------------------------------------------------------------
// 0x0310

/// Record 0x0310: "8 bytes, not all zero", meaning unknown; kept whole, whatever its length.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SequenceInfo {
    pub raw: Hex,
}

pub fn parse_info(body: &[u8], _base: u64) -> Result<SequenceInfo> {
    Ok(SequenceInfo { raw: Hex(body.to_vec()) })
}

pub fn write_info(info: &SequenceInfo) -> Vec<u8> {
    info.raw.0.clone()
}

// ---------------------------------------------------------------------------------------------------------
// 0x0311

pub struct SequenceFlags;
impl FlagNames for SequenceFlags {
    const NAMES: &'static [(u32, &'static str)] = &[
        (0x01, "play_looped"),
        (0x02, "flush_sequence_on_exit"),
        (0x04, "preload_animations_on_play"),
        (0x08, "flush_animations_on_stop"),
        (0x10, "preload_sounds_on_play"),
        (0x20, "flush_sounds_on_stop"),
        (0x40, "can_fast_forward"),
    ];
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Sequence {
    pub name: Name,
    pub flags: Flags<SequenceFlags>,
    /// 0 = do not modify, 1 = stop running all objects, 2 = stop running non-actors, 3 = stop running actors.
    pub modify_run_states: u32,
    pub unk2: u32,
    pub actors: Vec<Actor>,
    /// The actor count the file declares, present only when decoding stopped inside the last actor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared_actor_count: Option<u32>,
    #[serde(default, skip_serializing_if = "hex_is_empty")]
    pub trailing: Hex,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Actor {
    pub name: Name,
    /// The actor id other actions refer to.
    pub id: u32,
    /// 0 = null actor, 1 = object, 2 = assigned by AI.
    pub actor_type: u32,
    /// The "parameter n" option (for actors assigned by AI).
    pub assigned_as: u32,
    /// `None` when the actor type is unknown (decoding stopped before it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Target>,
    pub actions: Vec<Action>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undecoded: Option<Undecoded>,
}

/// What an actor stands for, by actor type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// Type 0: an unused u32.
    Unused(u32),
    /// Type 1: a level object.
    LevelObject(u32),
    /// Type 2: a class reference.
    AiClass(Ref),
}

/// Where decoding stopped: the rest of the body, raw.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Undecoded {
    /// The actor's declared action count (`None` when decoding stopped before it).
    pub action_count: Option<u32>,
    /// Why decoding stopped.
    pub reason: String,
    /// Every byte of the body from there on.
    pub bytes: Base64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Action {
    /// Time in the sequence.
    pub t: F32,
    #[serde(flatten)]
    pub kind: ActionKind,
}

/// Actions by type (spec `struct action`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ActionKind {
    /// Type 0: a transform key frame.
    Transform {
        /// Quaternion x, y, z, w.
        rotation: [F32; 4],
        /// World units.
        position: Vec3,
        relative_actor_id: u32,
        options: KeyOptions,
    },
    /// Type 1.
    StartAnim { channel_index: u32, anim: Ref, begin_play_at: F32, transition_time: F32, speed: F32, flags: AnimFlags },
    /// Type 3.
    PlaySound {
        sound: Ref,
        duration: F32,
        /// 0 to 10000.
        volume: u16,
        flags: Flags<PlaySoundFlags>,
    },
    /// Type 4.
    Attach { other_actor_id: u32, this_actor_channel_id: u32 },
    /// Type 5.
    RunStopAi { enable_ai: u32 },
    /// Type 6.
    ShowHide { is_visible: u32 },
    /// Type 7: an RFL message (4097 On, 4098 Off, 4353 Lock, …).
    Message { message_number: u32, unk0: u32 },
    /// Type 8.
    Music { music_id: u32, dls_id: u32, fade_in_time: F32, fade_out_time: F32 },
}

impl ActionKind {
    pub fn type_code(&self) -> u16 {
        match self {
            ActionKind::Transform { .. } => 0,
            ActionKind::StartAnim { .. } => 1,
            ActionKind::PlaySound { .. } => 3,
            ActionKind::Attach { .. } => 4,
            ActionKind::RunStopAi { .. } => 5,
            ActionKind::ShowHide { .. } => 6,
            ActionKind::Message { .. } => 7,
            ActionKind::Music { .. } => 8,
        }
    }
}

/// Play-sound flags (u16): 0x08 flush from memory after playing, 0x10 mono; the spec also says
/// "0x30 == notify actor", which overlaps mono: shown when both bits are set.
pub struct PlaySoundFlags;
impl FlagNames for PlaySoundFlags {
    const NAMES: &'static [(u32, &'static str)] =
        &[(0x08, "flush_after_playing"), (0x10, "mono"), (0x30, "notify_actor")];
}

/// Key frame options: bits 0–1 relative to (world, actor, look at actor), bits 4–5 interpolation (none,
/// linear-linear, linear-spline, sine-spline), 0x100 ignore position, 0x200 ignore rotation. JSON shows
/// them by name; only `value` is read back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct KeyOptions(pub u32);

#[derive(Serialize)]
struct KeyOptionsView {
    value: u32,
    relative_to: &'static str,
    interpolation: &'static str,
    ignore_position: bool,
    ignore_rotation: bool,
}

/// The name of the value of the two low bits.
fn two_bits(names: [&'static str; 4], v: u32) -> &'static str {
    let [a, b, c, d] = names;
    match v & 3 {
        0 => a,
        1 => b,
        2 => c,
        _ => d,
    }
}

#[derive(Deserialize)]
struct ValueOnly {
    value: u32,
}

impl Serialize for KeyOptions {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        KeyOptionsView {
            value: v,
            relative_to: two_bits(["world", "actor", "look_at_actor", "unknown"], v),
            interpolation: two_bits(["none", "linear_linear", "linear_spline", "sine_spline"], v >> 4),
            ignore_position: v & 0x100 != 0,
            ignore_rotation: v & 0x200 != 0,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for KeyOptions {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(KeyOptions(ValueOnly::deserialize(d)?.value))
    }
}

/// Start-animation flags: two bits per axis (x at bits 0–1, y 2–3, z 4–5) for the root node translation
/// (mesh, frame, none, invalid), and bit 8 "no attached sound". JSON shows them by name; only `value` is
/// read back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AnimFlags(pub u32);

#[derive(Serialize)]
struct AnimFlagsView {
    value: u32,
    root_translation: [&'static str; 3],
    no_attached_sound: bool,
}

impl Serialize for AnimFlags {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let axis = |shift: u32| two_bits(["mesh", "frame", "none", "invalid"], self.0 >> shift);
        AnimFlagsView {
            value: self.0,
            root_translation: [axis(0), axis(2), axis(4)],
            no_attached_sound: self.0 & 0x100 != 0,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for AnimFlags {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(AnimFlags(ValueOnly::deserialize(d)?.value))
    }
}

pub fn parse(body: &[u8], base: u64) -> Result<Sequence> {
    let mut r = body_reader(body, base);
    let mut seq = Sequence {
        name: Name::read(&mut r, "sequence.name")?,
        flags: Flags::new(r.u32("sequence.flags")?),
        modify_run_states: r.u32("sequence.modify_run_states")?,
        unk2: r.u32("sequence.unk2")?,
        ..Sequence::default()
    };
    let declared = r.u32("sequence.actor_count")?;
    // An actor is at least 14 bytes (name length, id, type, assigned_as).
    let n = r.count(u64::from(declared), 14, "sequence.actors")?;
    for i in 0..n {
        let actor = read_actor(&mut r).map_err(|e| e.within(format_args!("sequence.actors[{i}]")))?;
        let stopped = actor.undecoded.is_some();
        seq.actors.push(actor);
        if stopped {
            seq.declared_actor_count = Some(declared);
            return Ok(seq);
        }
    }
    seq.trailing = rest(&mut r);
    Ok(seq)
}

fn stop(r: &mut Reader<'_>, action_count: Option<u32>, reason: String) -> Option<Undecoded> {
    let bytes = r.bytes(r.remaining(), "undecoded").map(<[u8]>::to_vec).unwrap_or_default();
    Some(Undecoded { action_count, reason, bytes: Base64(bytes) })
}

fn read_actor(r: &mut Reader<'_>) -> Result<Actor> {
    let mut a = Actor {
        name: Name::read(r, "name")?,
        id: r.u32("id")?,
        actor_type: r.u32("actor_type")?,
        assigned_as: r.u32("assigned_as")?,
        ..Actor::default()
    };
    a.target = match a.actor_type {
        0 => Some(Target::Unused(r.u32("unused")?)),
        1 => Some(Target::LevelObject(r.u32("level_object_id")?)),
        2 => Some(Target::AiClass(Ref::read(r, "ai_class")?)),
        t => {
            let at = r.offset();
            a.undecoded = stop(r, None, format!("actor type {t} at offset 0x{at:X} is unknown (known: 0, 1, 2)"));
            return Ok(a);
        }
    };
    let declared = r.u32("action_count")?;
    // An action is at least 6 bytes (type, t).
    let n = r.count(u64::from(declared), 6, "actions")?;
    for i in 0..n {
        let (start, at) = (r.pos(), r.offset());
        let type_code = r.u16("type").map_err(|e| e.within(format_args!("actions[{i}]")))?;
        let t = read_f32(r, "t").map_err(|e| e.within(format_args!("actions[{i}]")))?;
        match read_action(r, type_code).map_err(|e| e.within(format_args!("actions[{i}]")))? {
            Some(kind) => a.actions.push(Action { t, kind }),
            None => {
                r.seek(start, "actions")?;
                let reason = format!(
                    "action {i} at offset 0x{at:X} has type {type_code}, whose layout is unknown (known: 0, 1, 3-8)"
                );
                a.undecoded = stop(r, Some(declared), reason);
                return Ok(a);
            }
        }
    }
    Ok(a)
}

/// The body of an action of a known type; `None` for type 2 and unknown types.
fn read_action(r: &mut Reader<'_>, type_code: u16) -> Result<Option<ActionKind>> {
    Ok(Some(match type_code {
        0 => ActionKind::Transform {
            rotation: read_floats(r, "rotation")?,
            position: read_floats(r, "position")?,
            relative_actor_id: r.u32("relative_actor_id")?,
            options: KeyOptions(r.u32("options")?),
        },
        1 => ActionKind::StartAnim {
            channel_index: r.u32("channel_index")?,
            anim: Ref::read(r, "anim")?,
            begin_play_at: read_f32(r, "begin_play_at")?,
            transition_time: read_f32(r, "transition_time")?,
            speed: read_f32(r, "speed")?,
            flags: AnimFlags(r.u32("flags")?),
        },
        3 => ActionKind::PlaySound {
            sound: Ref::read(r, "sound")?,
            duration: read_f32(r, "duration")?,
            volume: r.u16("volume")?,
            flags: Flags::new(u32::from(r.u16("flags")?)),
        },
        4 => ActionKind::Attach {
            other_actor_id: r.u32("other_actor_id")?,
            this_actor_channel_id: r.u32("this_actor_channel_id")?,
        },
        5 => ActionKind::RunStopAi { enable_ai: r.u32("enable_ai")? },
        6 => ActionKind::ShowHide { is_visible: r.u32("is_visible")? },
        7 => ActionKind::Message { message_number: r.u32("message_number")?, unk0: r.u32("unk0")? },
        8 => ActionKind::Music {
            music_id: r.u32("music_id")?,
            dls_id: r.u32("dls_id")?,
            fade_in_time: read_f32(r, "fade_in_time")?,
            fade_out_time: read_f32(r, "fade_out_time")?,
        },
        _ => return Ok(None),
    }))
}

pub fn write(seq: &Sequence) -> Vec<u8> {
    let mut out = Vec::new();
    seq.name.write(&mut out);
    out.put_u32(seq.flags.value);
    out.put_u32(seq.modify_run_states);
    out.put_u32(seq.unk2);
    out.put_u32(seq.declared_actor_count.unwrap_or(count_u32(seq.actors.len())));
    for a in &seq.actors {
        a.name.write(&mut out);
        out.put_u32(a.id);
        out.put_u32(a.actor_type);
        out.put_u32(a.assigned_as);
        if let Some(target) = a.target {
            match target {
                Target::Unused(v) | Target::LevelObject(v) => out.put_u32(v),
                Target::AiClass(r) => r.write(&mut out),
            }
            let declared = a.undecoded.as_ref().and_then(|u| u.action_count);
            out.put_u32(declared.unwrap_or(count_u32(a.actions.len())));
            for action in &a.actions {
                write_action(action, &mut out);
            }
        }
        if let Some(u) = &a.undecoded {
            // The raw rest of the body: later actors and trailing bytes are in it.
            out.extend_from_slice(&u.bytes.0);
            return out;
        }
    }
    out.extend_from_slice(&seq.trailing.0);
    out
}

fn write_action(action: &Action, out: &mut Vec<u8>) {
    out.put_u16(action.kind.type_code());
    out.put_f32(action.t);
    match &action.kind {
        ActionKind::Transform { rotation, position, relative_actor_id, options } => {
            out.put_floats(rotation);
            out.put_floats(position);
            out.put_u32(*relative_actor_id);
            out.put_u32(options.0);
        }
        ActionKind::StartAnim { channel_index, anim, begin_play_at, transition_time, speed, flags } => {
            out.put_u32(*channel_index);
            anim.write(out);
            out.put_floats(&[*begin_play_at, *transition_time, *speed]);
            out.put_u32(flags.0);
        }
        ActionKind::PlaySound { sound, duration, volume, flags } => {
            sound.write(out);
            out.put_f32(*duration);
            out.put_u16(*volume);
            out.put_u16(flags.value as u16);
        }
        ActionKind::Attach { other_actor_id: a, this_actor_channel_id: b }
        | ActionKind::Message { message_number: a, unk0: b } => {
            out.put_u32(*a);
            out.put_u32(*b);
        }
        ActionKind::RunStopAi { enable_ai: v } | ActionKind::ShowHide { is_visible: v } => out.put_u32(*v),
        ActionKind::Music { music_id, dls_id, fade_in_time, fade_out_time } => {
            out.put_u32(*music_id);
            out.put_u32(*dls_id);
            out.put_floats(&[*fade_in_time, *fade_out_time]);
        }
    }
}
