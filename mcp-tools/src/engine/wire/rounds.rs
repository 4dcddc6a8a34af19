//! The rounds of a call in revision 2026-07-28: a tool that asks something not yet
//! answered ends the round with an `input_required` result (its questions, and the answers
//! so far sealed in `requestState`); the client calls again with the answers, and the tool
//! runs again from the top, each ask answered at once from what the round was given.
//!
//! An answer is bound to its question: the state seals, with each question the client is
//! sent, a digest of it (the method and its params), and with each answer the digest of
//! the question it answers. An ask takes an answer only when the question it asks now has
//! that digest, and only when the answer is a result of the request (its `check`); else
//! the question is asked again. Answers that arrive without a state (a client answering
//! before it is asked, as SEP-2322 allows) are taken by the asks under their keys, checked
//! the same way, as no question is known to have been put to compare them with; only
//! answers an ask took are sealed into the next state, each bound to the question it was
//! taken for.

use crate::context::Check;
use crate::protocol::arguments::canonical_json;
use crate::result::CallToolResult;
use crate::seal::KeyRing;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::task::{Context, Poll};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The one message for a `requestState` that does not open: whatever the cause (altered,
/// expired, sealed for another tool, arguments or caller, or by a key this server lacks),
/// the client learns nothing more.
pub(crate) const BAD_STATE: &str = "invalid or expired requestState";

/// A question the tool asked that the client has not answered yet.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct InputRequest {
    #[serde(skip)]
    pub(crate) key: String,
    pub(crate) method: String,
    pub(crate) params: Value,
}

/// What identifies a question: the first 128 bits of the SHA-256 of its method and its
/// params in canonical form. Two questions that differ in any way (a count in a message,
/// a field of a form, a message of a sampling request) have different digests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Question([u8; 16]);

impl Question {
    /// The digest of a request of `method` with `params`.
    pub(crate) fn of(method: &str, params: &Value) -> Question {
        let mut hash = Sha256::new();
        hash.update(b"mcp-toolkit question 1");
        hash.update((method.len() as u64).to_be_bytes());
        hash.update(method.as_bytes());
        hash.update(canonical_json(params).as_bytes());
        let mut digest = [0_u8; 16];
        digest.copy_from_slice(&hash.finalize()[..16]);
        Question(digest)
    }
}

/// In the state as 22 characters of URL-safe base64.
impl Serialize for Question {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&URL_SAFE_NO_PAD.encode(self.0))
    }
}

impl<'de> Deserialize<'de> for Question {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Question, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        let bytes = URL_SAFE_NO_PAD
            .decode(text.as_bytes())
            .map_err(serde::de::Error::custom)?;
        let digest = bytes
            .try_into()
            .map_err(|_| serde::de::Error::custom("a question's digest is 16 bytes"))?;
        Ok(Question(digest))
    }
}

/// An answer, with the question it answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Answer {
    #[serde(rename = "q")]
    pub(crate) question: Question,
    #[serde(rename = "a")]
    pub(crate) value: Value,
}

/// The answers a call brings, by key.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Answers {
    /// From a sealed state: those it carries, and those of the call's `inputResponses`
    /// under the keys it asked; each bound to its question.
    pub(crate) bound: HashMap<String, Answer>,
    /// The call's `inputResponses` when it brings no state: bound to no question, each is
    /// taken by whatever the ask under its key asks.
    pub(crate) unbound: HashMap<String, Value>,
}

/// What one run of a tool knows and asks in a round.
#[derive(Default)]
pub(crate) struct Round {
    /// The answers so far, by key.
    answers: Answers,
    /// What this run asked.
    run: Mutex<Run>,
}

/// What one run has asked so far.
#[derive(Default)]
struct Run {
    /// How many asks it made, for the keys of those that name none.
    count: usize,
    /// The asks that found no answer, in the order asked.
    asked: Vec<InputRequest>,
    /// The answers it took, each with the question it took it for: what the next state
    /// carries.
    taken: BTreeMap<String, Answer>,
}

impl Round {
    /// A round that knows `answers`.
    pub(crate) fn new(answers: Answers) -> Round {
        Round {
            answers,
            ..Round::default()
        }
    }

    /// An ask: its answer if the round has one to this very question that passes `check`;
    /// otherwise it is recorded as a question of the round, and `None`.
    pub(crate) fn ask(&self, method: &str, params: Value, key: Option<&str>, check: Check) -> Option<Value> {
        let mut run = self.run.lock().unwrap_or_else(|e| e.into_inner());
        run.count += 1;
        let key = match key {
            Some(key) => key.to_owned(),
            None => format!("{}_{}", short_name(method), run.count),
        };
        let question = Question::of(method, &params);
        let found = match self.answers.bound.get(&key) {
            Some(answer) if answer.question != question => {
                tracing::debug!(
                    key,
                    method,
                    "the question under this key is not the one answered; asking again"
                );
                None
            }
            Some(answer) => Some(&answer.value),
            None => self.answers.unbound.get(&key),
        };
        if let Some(value) = found {
            match check(value) {
                Ok(()) => {
                    let value = value.clone();
                    run.taken.insert(
                        key,
                        Answer {
                            question,
                            value: value.clone(),
                        },
                    );
                    return Some(value);
                }
                // Not an answer to this question: asked again, as if none had come.
                Err(reason) => tracing::debug!(
                    key,
                    method,
                    reason,
                    "an input response that is not a result of its request; asking again"
                ),
            }
        }
        if !run.asked.iter().any(|request| request.key == key) {
            run.asked.push(InputRequest {
                key,
                method: method.to_owned(),
                params,
            });
        }
        None
    }

    /// Takes the questions asked so far.
    fn take_asked(&self) -> Vec<InputRequest> {
        std::mem::take(&mut self.run.lock().unwrap_or_else(|e| e.into_inner()).asked)
    }

    /// The answers this run took, by key: what the next state carries.
    pub(crate) fn taken(&self) -> BTreeMap<String, Answer> {
        self.run.lock().unwrap_or_else(|e| e.into_inner()).taken.clone()
    }
}

/// The key prefix of an ask that names no key: `elicit_1`, `sample_2`, `roots_3`.
fn short_name(method: &str) -> &str {
    match method {
        "elicitation/create" => "elicit",
        "sampling/createMessage" => "sample",
        "roots/list" => "roots",
        _ => "request",
    }
}

/// How a run of a tool (or a prompt) ended.
pub(crate) enum Finished<T = CallToolResult> {
    /// With a result.
    Complete(T),
    /// Waiting for answers to these questions.
    InputRequired(Vec<InputRequest>),
}

/// A tool's work, ended early when it waits on a question of its round: the questions it
/// asked before it had to wait (every ask of a `join!` included) are the round's.
pub(crate) struct Rounds<F> {
    pub(crate) work: F,
    pub(crate) round: Option<std::sync::Arc<Round>>,
}

impl<T, F: Future<Output = T> + Unpin> Future for Rounds<F> {
    type Output = Finished<T>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Finished<T>> {
        match Pin::new(&mut self.work).poll(cx) {
            Poll::Ready(result) => Poll::Ready(Finished::Complete(result)),
            Poll::Pending => match &self.round {
                Some(round) => {
                    let asked = round.take_asked();
                    if asked.is_empty() {
                        Poll::Pending
                    } else {
                        Poll::Ready(Finished::InputRequired(asked))
                    }
                }
                None => Poll::Pending,
            },
        }
    }
}

/// What a `requestState` holds, sealed.
#[derive(Serialize, Deserialize)]
struct Sealed {
    /// Milliseconds since the Unix epoch after which the state is refused.
    exp: u64,
    /// The answers the run that sealed the state took, by key, each with its question.
    answers: BTreeMap<String, Answer>,
    /// The questions the state was sent with, by key: the answers a retry may add.
    asked: BTreeMap<String, Question>,
}

/// The call a `requestState` belongs to: sealed for one, it opens for no other.
pub(crate) struct Binding<'a> {
    pub(crate) method: &'a str,
    pub(crate) name: &'a str,
    /// The call's arguments in canonical form ([`RawArguments::canonical`](crate::tool::RawArguments::canonical)).
    pub(crate) arguments: &'a str,
    /// Who called, when the transport knows.
    pub(crate) caller: Option<&'a str>,
}

impl Binding<'_> {
    /// The associated data of the seal: every field, each length-prefixed so no two
    /// bindings share bytes. The format's number changes with what a state holds, so a
    /// state of another format does not open.
    fn bytes(&self) -> Vec<u8> {
        let mut out = b"mcp-toolkit requestState 2".to_vec();
        let caller = self.caller.map_or(String::new(), |c| format!("+{c}"));
        for part in [self.method, self.name, self.arguments, &caller] {
            out.extend_from_slice(&(part.len() as u64).to_be_bytes());
            out.extend_from_slice(part.as_bytes());
        }
        out
    }
}

/// Seals the state of a round that ended with `asked`: the answers the run took, and the
/// questions.
pub(crate) fn seal(
    keys: &KeyRing,
    binding: &Binding<'_>,
    ttl: Duration,
    round: &Round,
    asked: &[InputRequest],
) -> Result<String, String> {
    let exp = now().saturating_add(u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX));
    let state = Sealed {
        exp,
        answers: round.taken(),
        asked: asked
            .iter()
            .map(|request| {
                (
                    request.key.clone(),
                    Question::of(&request.method, &request.params),
                )
            })
            .collect(),
    };
    let plain = serde_json::to_vec(&state).map_err(|e| e.to_string())?;
    keys.seal(&binding.bytes(), &plain).map_err(|e| e.to_string())
}

/// The answers a call brings: those sealed in `state` (which must open for `binding` and
/// not have expired), and those of `responses` that answer the state's questions, each
/// bound to its question. Without a state, `responses` are unbound: no question of the
/// server's is known to have been put to the client, and each is taken (or not) by the ask
/// under its key.
pub(crate) fn answers(
    keys: &KeyRing,
    binding: &Binding<'_>,
    state: Option<&str>,
    responses: Option<&RawValue>,
) -> Result<Answers, &'static str> {
    const NOT_AN_OBJECT: &str = "`inputResponses` must be an object";
    let responses: HashMap<String, &RawValue> = match responses {
        Some(raw) => serde_json::from_str(raw.get()).map_err(|_| NOT_AN_OBJECT)?,
        None => HashMap::new(),
    };
    let Some(state) = state else {
        let unbound = responses
            .into_iter()
            .map(|(key, raw)| Ok((key, serde_json::from_str(raw.get()).map_err(|_| NOT_AN_OBJECT)?)))
            .collect::<Result<_, &'static str>>()?;
        return Ok(Answers {
            bound: HashMap::new(),
            unbound,
        });
    };
    let plain = keys.open(&binding.bytes(), state).ok_or(BAD_STATE)?;
    let sealed: Sealed = serde_json::from_slice(&plain).map_err(|_| BAD_STATE)?;
    if sealed.exp < now() {
        return Err(BAD_STATE);
    }
    let mut bound: HashMap<String, Answer> = sealed.answers.into_iter().collect();
    for (key, question) in sealed.asked {
        if let Some(raw) = responses.get(&key) {
            let value = serde_json::from_str(raw.get()).map_err(|_| NOT_AN_OBJECT)?;
            bound.insert(key, Answer { question, value });
        }
    }
    Ok(Answers {
        bound,
        unbound: HashMap::new(),
    })
}

/// Milliseconds since the Unix epoch.
fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| u64::try_from(since.as_millis()).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seal::SealKey;
    use serde_json::json;

    fn keys() -> KeyRing {
        KeyRing::new(SealKey::from_bytes([9; 32]))
    }

    fn binding<'a>(name: &'a str, arguments: &'a str, caller: Option<&'a str>) -> Binding<'a> {
        Binding {
            method: "tools/call",
            name,
            arguments,
            caller,
        }
    }

    fn asked(key: &str) -> Vec<InputRequest> {
        vec![InputRequest {
            key: key.into(),
            method: "roots/list".into(),
            params: json!({}),
        }]
    }

    fn anything(_: &Value) -> Result<(), String> {
        Ok(())
    }

    fn answer(method: &str, params: Value, value: Value) -> Answer {
        Answer {
            question: Question::of(method, &params),
            value,
        }
    }

    /// Answers from a sealed state.
    fn bound(answers: impl IntoIterator<Item = (String, Answer)>) -> Answers {
        Answers {
            bound: answers.into_iter().collect(),
            unbound: HashMap::new(),
        }
    }

    /// A round that took `answers` (each to `roots/list`): what the next state seals.
    fn taking(answers: &[(&str, Value)]) -> Round {
        let round = Round::new(bound(answers.iter().map(|(key, value)| {
            (key.to_string(), answer("roots/list", json!({}), value.clone()))
        })));
        for (key, _) in answers {
            assert!(round.ask("roots/list", json!({}), Some(key), anything).is_some());
        }
        round
    }

    #[test]
    fn a_sealed_state_carries_its_answers_and_takes_answers_to_its_questions_only() {
        let bind = binding("t", "{}", None);
        let earlier = taking(&[("first", json!(1))]);
        let state = seal(
            &keys(),
            &bind,
            Duration::from_secs(60),
            &earlier,
            &asked("second"),
        )
        .unwrap();
        let responses = RawValue::from_string(r#"{"second": 2, "stray": 3, "first": 9}"#.into()).unwrap();
        let answers = answers(&keys(), &bind, Some(&state), Some(&responses)).unwrap();
        assert_eq!(
            answers,
            bound([
                ("first".into(), answer("roots/list", json!({}), json!(1))),
                ("second".into(), answer("roots/list", json!({}), json!(2)))
            ])
        );
    }

    #[test]
    fn responses_without_a_state_are_taken_by_the_ask_under_their_key_and_bound_to_it() {
        let responses =
            RawValue::from_string(r#"{"roots_1": {"roots": []}, "stray": 1, "bad": 2}"#.into()).unwrap();
        let bind = binding("t", "{}", None);
        let answers = answers(&keys(), &bind, None, Some(&responses)).unwrap();
        assert!(answers.bound.is_empty());
        assert_eq!(answers.unbound.len(), 3);
        let round = Round::new(answers);
        // Taken by whatever the ask under its key asks: no question is known to compare.
        assert_eq!(
            round.ask("roots/list", json!({}), None, anything),
            Some(json!({ "roots": [] }))
        );
        // Checked as any answer is: one that fails is asked again.
        let refuse = |_: &Value| Err("no".to_owned());
        assert_eq!(round.ask("roots/list", json!({}), Some("bad"), refuse), None);
        // Sealed bound to the question it was taken for; the stray and the refused are not.
        assert_eq!(
            round.taken(),
            BTreeMap::from([(
                "roots_1".to_owned(),
                answer("roots/list", json!({}), json!({ "roots": [] }))
            )])
        );
        let not_an_object = RawValue::from_string("[1]".into()).unwrap();
        assert!(super::answers(&keys(), &bind, None, Some(&not_an_object)).is_err());
    }

    #[test]
    fn a_state_opens_for_its_own_call_only() {
        let state = seal(
            &keys(),
            &binding("t", r#"{"a":1}"#, Some("ada")),
            Duration::from_secs(60),
            &Round::default(),
            &asked("k"),
        )
        .unwrap();
        let open = |b: &Binding<'_>, keys: &KeyRing| answers(keys, b, Some(&state), None);
        assert!(open(&binding("t", r#"{"a":1}"#, Some("ada")), &keys()).is_ok());
        for other in [
            binding("u", r#"{"a":1}"#, Some("ada")),
            binding("t", r#"{"a":2}"#, Some("ada")),
            binding("t", r#"{"a":1}"#, Some("bob")),
            binding("t", r#"{"a":1}"#, None),
        ] {
            assert_eq!(open(&other, &keys()).unwrap_err(), BAD_STATE);
        }
        let stranger = KeyRing::new(SealKey::from_bytes([8; 32]));
        assert_eq!(
            open(&binding("t", r#"{"a":1}"#, Some("ada")), &stranger).unwrap_err(),
            BAD_STATE
        );
    }

    #[test]
    fn an_expired_state_is_refused() {
        let bind = binding("t", "{}", None);
        let mut state = Sealed {
            exp: now() - 1,
            answers: BTreeMap::new(),
            asked: BTreeMap::new(),
        };
        let sealed = keys()
            .seal(&bind.bytes(), &serde_json::to_vec(&state).unwrap())
            .unwrap();
        assert_eq!(
            answers(&keys(), &bind, Some(&sealed), None).unwrap_err(),
            BAD_STATE
        );
        state.exp = now() + 60_000;
        let sealed = keys()
            .seal(&bind.bytes(), &serde_json::to_vec(&state).unwrap())
            .unwrap();
        assert!(answers(&keys(), &bind, Some(&sealed), None).is_ok());
    }

    #[test]
    fn an_answer_to_another_question_under_the_key_is_asked_again() {
        let confirm = |count: u32| json!({ "message": format!("Delete all {count} notes?") });
        let yes = json!({ "action": "accept", "content": { "confirm": true } });
        let round = Round::new(bound([(
            "elicit_1".to_owned(),
            answer("elicitation/create", confirm(1), yes.clone()),
        )]));
        assert_eq!(round.ask("elicitation/create", confirm(2), None, anything), None);
        let asked = round.take_asked();
        assert_eq!(asked.len(), 1);
        assert_eq!(asked[0].params, confirm(2));
        assert!(round.taken().is_empty(), "the stale answer is not sealed again");

        // The same question (members in another order too) takes it.
        let round = Round::new(bound([(
            "k".to_owned(),
            answer("elicitation/create", json!({ "a": 1, "b": 2 }), yes.clone()),
        )]));
        let reordered = serde_json::from_str(r#"{"b": 2, "a": 1}"#).unwrap();
        assert_eq!(
            round.ask("elicitation/create", reordered, Some("k"), anything),
            Some(yes.clone())
        );
        // Not the same question under another method.
        let round = Round::new(bound([(
            "k".to_owned(),
            answer("elicitation/create", json!({}), yes),
        )]));
        assert_eq!(round.ask("roots/list", json!({}), Some("k"), anything), None);
    }

    #[test]
    fn an_answer_that_fails_its_check_is_asked_again_and_not_sealed() {
        let refuse = |_: &Value| Err("no".to_owned());
        let round = Round::new(bound([
            ("a".to_owned(), answer("roots/list", json!({}), json!(1))),
            ("b".to_owned(), answer("roots/list", json!({}), json!(2))),
        ]));
        assert_eq!(round.ask("roots/list", json!({}), Some("a"), refuse), None);
        assert_eq!(
            round.ask("roots/list", json!({}), Some("b"), anything),
            Some(json!(2))
        );
        let keys: Vec<String> = round.take_asked().into_iter().map(|r| r.key).collect();
        assert_eq!(keys, ["a"]);
        assert_eq!(round.taken().keys().collect::<Vec<_>>(), ["b"]);
    }

    #[test]
    fn asks_without_keys_are_numbered_in_the_order_asked() {
        let value =
            json!({ "role": "assistant", "model": "m", "content": { "type": "text", "text": "yes" } });
        let round = Round::new(bound([(
            "sample_2".to_owned(),
            answer("sampling/createMessage", json!({}), value.clone()),
        )]));
        assert_eq!(round.ask("roots/list", json!({}), None, anything), None);
        assert_eq!(
            round.ask("sampling/createMessage", json!({}), None, anything),
            Some(value)
        );
        assert_eq!(
            round.ask("elicitation/create", json!({}), Some("name"), anything),
            None
        );
        let keys: Vec<String> = round.take_asked().into_iter().map(|r| r.key).collect();
        assert_eq!(keys, ["roots_1", "name"]);
    }

    #[test]
    fn a_state_stays_small() {
        let round = taking(&[("roots_1", json!({ "roots": [] }))]);
        let state = seal(
            &keys(),
            &binding("t", "{}", None),
            Duration::from_secs(60),
            &round,
            &asked("roots_2"),
        )
        .unwrap();
        // 8 bytes of expiry, two 22-character digests, one small answer, the seal's 41.
        assert!(state.len() < 300, "{} bytes: {state}", state.len());
    }
}
