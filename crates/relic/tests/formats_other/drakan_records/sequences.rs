//! Sequences (spec "Sequence (0x0310 - 0x0312)"): 0x0310 kept raw; 0x0311 with every actor type and every
//! action type of known layout, exact values; type 2 and unknown types stop decoding and keep the rest raw.

use relic::drakan::records::sequence::{self, ActionKind, AnimFlags, KeyOptions, Target};

use super::{check_record, f, r, SrscFields, B};

#[test]
fn sequence_info_0x0310_is_kept_raw() {
    let bytes = [1, 0, 0, 0, 0x10, 0, 0, 0];
    let info = check_record(0x0310, &bytes, sequence::parse_info, sequence::write_info);
    assert_eq!(info.raw.0, bytes);
}

fn header(actors: u32) -> B {
    B::new().str("Intro").u32(0x41).u32(2).u32(0).u32(actors)
}

/// Action type and time.
fn action(b: B, ty: u16, t: f32) -> B {
    b.u16(ty).f32(t)
}

fn fixture() -> Vec<u8> {
    let mut b = header(3);
    // Actor 1: a null actor with a transform, a start-anim, a play-sound and an attach.
    b = b.str("Cam").u32(1).u32(0).u32(0).u32(0xABCD).u32(4);
    b = action(b, 0, 0.5).floats(&[0.0, 0.0, 0.70710677, 0.70710677]).floats(&[1.0, 2.0, 3.0]).u32(2).u32(0x0321);
    b = action(b, 1, 1.0).u32(3).r#ref(0x15, 1).floats(&[0.25, 0.5, 1.5]).u32(0x0107);
    b = action(b, 3, 2.0).r#ref(0x30, 2).f32(4.5).u16(10000).u16(0x18);
    b = action(b, 4, 2.5).u32(2).u32(7);
    // Actor 2: a level object with run/stop AI, show/hide, a message and music.
    b = b.str("Door").u32(2).u32(1).u32(0).u32(77).u32(4);
    b = action(b, 5, 3.0).u32(1);
    b = action(b, 6, 3.5).u32(0);
    b = action(b, 7, 4.0).u32(4097).u32(0);
    b = action(b, 8, 5.0).u32(12).u32(0x101).f32(1.0).f32(2.0);
    // Actor 3: assigned by AI, with a class reference and no actions.
    b = b.str("Guard").u32(3).u32(2).u32(1).r#ref(5, 1).u32(0);
    b.done()
}

#[test]
fn sequence_0x0311_with_every_action_type() {
    let bytes = fixture();
    let s = check_record(0x0311, &bytes, sequence::parse, sequence::write);
    assert_eq!(s.name.text, "Intro");
    assert_eq!((s.flags.value, s.modify_run_states, s.unk2), (0x41, 2, 0));
    assert_eq!(s.declared_actor_count, None);
    assert_eq!(s.actors.len(), 3);

    let cam = &s.actors[0];
    assert_eq!((cam.name.text.as_str(), cam.id, cam.actor_type, cam.assigned_as), ("Cam", 1, 0, 0));
    assert_eq!(cam.target, Some(Target::Unused(0xABCD)));
    let kinds: Vec<(relic::codec::float::F32, &ActionKind)> = cam.actions.iter().map(|a| (a.t, &a.kind)).collect();
    assert_eq!(
        kinds,
        vec![
            (
                f(0.5),
                &ActionKind::Transform {
                    rotation: [f(0.0), f(0.0), f(0.70710677), f(0.70710677)],
                    position: [f(1.0), f(2.0), f(3.0)],
                    relative_actor_id: 2,
                    options: KeyOptions(0x0321),
                }
            ),
            (
                f(1.0),
                &ActionKind::StartAnim {
                    channel_index: 3,
                    anim: r(0x15, 1),
                    begin_play_at: f(0.25),
                    transition_time: f(0.5),
                    speed: f(1.5),
                    flags: AnimFlags(0x0107),
                }
            ),
            (
                f(2.0),
                &ActionKind::PlaySound {
                    sound: r(0x30, 2),
                    duration: f(4.5),
                    volume: 10000,
                    flags: relic::drakan::records::common::Flags::new(0x18),
                }
            ),
            (f(2.5), &ActionKind::Attach { other_actor_id: 2, this_actor_channel_id: 7 }),
        ]
    );

    let door = &s.actors[1];
    assert_eq!(door.target, Some(Target::LevelObject(77)));
    let kinds: Vec<&ActionKind> = door.actions.iter().map(|a| &a.kind).collect();
    assert_eq!(
        kinds,
        vec![
            &ActionKind::RunStopAi { enable_ai: 1 },
            &ActionKind::ShowHide { is_visible: 0 },
            &ActionKind::Message { message_number: 4097, unk0: 0 },
            &ActionKind::Music { music_id: 12, dls_id: 0x101, fade_in_time: f(1.0), fade_out_time: f(2.0) },
        ]
    );
    assert_eq!(door.actions.iter().map(|a| a.kind.type_code()).collect::<Vec<_>>(), [5, 6, 7, 8]);

    let guard = &s.actors[2];
    assert_eq!((guard.actor_type, guard.assigned_as, guard.target), (2, 1, Some(Target::AiClass(r(5, 1)))));
    assert!(guard.actions.is_empty() && guard.undecoded.is_none());

    // Flags and options by name in JSON.
    let json = serde_json::to_value(&s).unwrap();
    assert_eq!(json["flags"]["names"], serde_json::json!(["play_looped", "can_fast_forward"]));
    let options = &json["actors"][0]["actions"][0]["options"];
    assert_eq!(options["relative_to"], "actor");
    assert_eq!(options["interpolation"], "linear_spline");
    assert_eq!((options["ignore_position"].as_bool(), options["ignore_rotation"].as_bool()), (Some(true), Some(true)));
    let anim = &json["actors"][0]["actions"][1];
    assert_eq!(anim["type"], "start_anim");
    assert_eq!(anim["flags"]["root_translation"], serde_json::json!(["invalid", "frame", "mesh"]));
    assert_eq!(anim["flags"]["no_attached_sound"], true);
    assert_eq!(json["actors"][0]["actions"][2]["flags"]["names"], serde_json::json!(["flush_after_playing", "mono"]));
}

#[test]
fn an_action_of_unknown_layout_stops_decoding_and_keeps_the_rest() {
    // Actor 1: a show/hide, then a type-2 action; then a second actor the decoder never reaches.
    let mut b = header(2).str("Lamp").u32(1).u32(1).u32(0).u32(5).u32(3);
    b = action(b, 6, 0.0).u32(1);
    let stop_at = b.0.len();
    b = action(b, 2, 1.0).bytes(&[0xAA; 10]);
    b = b.str("Next").u32(2).u32(0).u32(0).u32(0).u32(0).u8(0x77);
    let bytes = b.done();
    let s = check_record(0x0311, &bytes, sequence::parse, sequence::write);
    assert_eq!(s.declared_actor_count, Some(2));
    assert_eq!(s.actors.len(), 1);
    let lamp = &s.actors[0];
    assert_eq!(lamp.actions.len(), 1);
    let u = lamp.undecoded.as_ref().unwrap();
    assert_eq!(u.action_count, Some(3));
    assert_eq!(u.bytes.0, &bytes[stop_at..]);
    assert!(u.reason.contains("type 2"), "{}", u.reason);
    assert!(u.reason.contains(&format!("0x{stop_at:X}")), "{}", u.reason);
}

#[test]
fn an_unknown_actor_type_stops_decoding_and_keeps_the_rest() {
    let b = header(1).str("Ghost").u32(9).u32(7).u32(0);
    let stop_at = b.0.len();
    let bytes = b.u32(1).u32(0).bytes(&[1, 2, 3]).done();
    let s = check_record(0x0311, &bytes, sequence::parse, sequence::write);
    let ghost = &s.actors[0];
    assert_eq!((ghost.actor_type, ghost.target), (7, None));
    let u = ghost.undecoded.as_ref().unwrap();
    assert_eq!((u.action_count, &u.bytes.0[..]), (None, &bytes[stop_at..]));
    assert_eq!(s.declared_actor_count, Some(1));
}

#[test]
fn truncated_actions_are_errors() {
    let bytes = fixture();
    // Cut inside the music action: an error, not a silent stop.
    let err = sequence::parse(&bytes[..bytes.len() - 30], 0).unwrap_err();
    assert!(err.to_string().contains("sequence.actors[1].actions[3]"), "{err}");
}
