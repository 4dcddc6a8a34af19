//! The rounds of a call in revision 2026-07-28: a tool that asks something not yet
//! answered ends the round with an `input_required` result (its questions, and the answers
//! so far sealed in `requestState`); the client calls again with the answers, and the tool
//! runs again from the top, each ask answered at once from what the round was given.

use crate::result::CallToolResult;
use crate::seal::KeyRing;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::collections::HashMap;
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

/// What one run of a tool knows and asks in a round.
#[derive(Default)]
pub(crate) struct Round {
    /// The answers so far, by key: from the sealed state and this call's `inputResponses`.
    answers: HashMap<String, Value>,
    /// The asks of this run that found no answer, in the order asked.
    asked: Mutex<Vec<InputRequest>>,
    /// How many asks this run has made, for the keys of those that name none.
    count: Mutex<usize>,
}

impl Round {
    /// A round that knows `answers`.
    pub(crate) fn new(answers: HashMap<String, Value>) -> Round {
        Round {
            answers,
            ..Round::default()
        }
    }

    /// An ask: its answer if the round has one; otherwise it is recorded as a question of
    /// the round, and `None`.
    pub(crate) fn ask(&self, method: &str, params: Value, key: Option<&str>) -> Option<Value> {
        let key = {
            let mut count = self.count.lock().unwrap_or_else(|e| e.into_inner());
            *count += 1;
            match key {
                Some(key) => key.to_owned(),
                None => format!("{}_{count}", short_name(method)),
            }
        };
        match self.answers.get(&key) {
            Some(answer) if fits(method, answer) => return Some(answer.clone()),
            // Not an answer to this question: asked again, as if none had come.
            Some(_) => tracing::debug!(
                key,
                method,
                "an input response that is not a result of its request; asking again"
            ),
            None => {}
        }
        let mut asked = self.asked.lock().unwrap_or_else(|e| e.into_inner());
        if !asked.iter().any(|request| request.key == key) {
            asked.push(InputRequest {
                key,
                method: method.to_owned(),
                params,
            });
        }
        None
    }

    /// Takes the questions asked so far.
    fn take_asked(&self) -> Vec<InputRequest> {
        std::mem::take(&mut *self.asked.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// The answers the round was given.
    pub(crate) fn answers(&self) -> &HashMap<String, Value> {
        &self.answers
    }
}

/// Whether `answer` has the shape of a result of `method`, so the ask can read it.
fn fits(method: &str, answer: &Value) -> bool {
    let text = |key: &str| answer.get(key).is_some_and(Value::is_string);
    match method {
        "elicitation/create" => {
            matches!(answer["action"].as_str(), Some("accept" | "decline" | "cancel"))
                && answer.get("content").is_none_or(Value::is_object)
        }
        "sampling/createMessage" => {
            text("role") && text("model") && (answer["content"].is_object() || answer["content"].is_array())
        }
        "roots/list" => answer["roots"]
            .as_array()
            .is_some_and(|roots| roots.iter().all(|root| root["uri"].is_string())),
        _ => answer.is_object(),
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
    /// Every answer so far, by key.
    answers: Map<String, Value>,
    /// The keys of the questions the state was sent with: the answers a retry may add.
    asked: Vec<String>,
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
    /// bindings share bytes.
    fn bytes(&self) -> Vec<u8> {
        let mut out = b"mcp-tools requestState 1".to_vec();
        let caller = self.caller.map_or(String::new(), |c| format!("+{c}"));
        for part in [self.method, self.name, self.arguments, &caller] {
            out.extend_from_slice(&(part.len() as u64).to_be_bytes());
            out.extend_from_slice(part.as_bytes());
        }
        out
    }
}

/// Seals the state of a round that ended with `asked`, knowing `answers`.
pub(crate) fn seal(
    keys: &KeyRing,
    binding: &Binding<'_>,
    ttl: Duration,
    answers: &HashMap<String, Value>,
    asked: &[InputRequest],
) -> Result<String, String> {
    let exp = now().saturating_add(u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX));
    let mut sorted: Vec<(&String, &Value)> = answers.iter().collect();
    sorted.sort_by_key(|(key, _)| *key);
    let state = Sealed {
        exp,
        answers: sorted.into_iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        asked: asked.iter().map(|request| request.key.clone()).collect(),
    };
    let plain = serde_json::to_vec(&state).map_err(|e| e.to_string())?;
    keys.seal(&binding.bytes(), &plain).map_err(|e| e.to_string())
}

/// The answers a retry brings: those sealed in `state` (which must open for `binding` and
/// not have expired), and those of `responses` that answer the state's questions. With no
/// state, `responses` are taken as they are: a client may answer before it is asked.
pub(crate) fn answers(
    keys: &KeyRing,
    binding: &Binding<'_>,
    state: Option<&str>,
    responses: Option<&RawValue>,
) -> Result<HashMap<String, Value>, &'static str> {
    let responses: Map<String, Value> = match responses {
        Some(raw) => serde_json::from_str(raw.get()).map_err(|_| "`inputResponses` must be an object")?,
        None => Map::new(),
    };
    let Some(state) = state else {
        return Ok(responses.into_iter().collect());
    };
    let plain = keys.open(&binding.bytes(), state).ok_or(BAD_STATE)?;
    let sealed: Sealed = serde_json::from_slice(&plain).map_err(|_| BAD_STATE)?;
    if sealed.exp < now() {
        return Err(BAD_STATE);
    }
    let mut answers: HashMap<String, Value> = sealed.answers.into_iter().collect();
    for (key, answer) in responses {
        if sealed.asked.contains(&key) {
            answers.insert(key, answer);
        }
    }
    Ok(answers)
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

    #[test]
    fn a_sealed_state_carries_its_answers_and_takes_answers_to_its_questions_only() {
        let bind = binding("t", "{}", None);
        let earlier = HashMap::from([("first".to_owned(), json!(1))]);
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
            HashMap::from([("first".into(), json!(1)), ("second".into(), json!(2))])
        );
    }

    #[test]
    fn a_state_opens_for_its_own_call_only() {
        let state = seal(
            &keys(),
            &binding("t", r#"{"a":1}"#, Some("ada")),
            Duration::from_secs(60),
            &HashMap::new(),
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
            answers: Map::new(),
            asked: vec![],
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
    fn an_answer_that_is_not_a_result_of_its_request_is_asked_again() {
        let round = Round::new(HashMap::from([
            ("a".to_owned(), json!(12345)),
            ("b".to_owned(), json!({ "action": "maybe" })),
            ("c".to_owned(), json!({ "roots": [{ "name": "no uri" }] })),
            ("d".to_owned(), json!({ "action": "decline" })),
        ]));
        assert_eq!(round.ask("elicitation/create", json!({}), Some("a")), None);
        assert_eq!(round.ask("elicitation/create", json!({}), Some("b")), None);
        assert_eq!(round.ask("roots/list", json!({}), Some("c")), None);
        let declined = round.ask("elicitation/create", json!({}), Some("d"));
        assert_eq!(declined, Some(json!({ "action": "decline" })));
        let keys: Vec<String> = round.take_asked().into_iter().map(|r| r.key).collect();
        assert_eq!(keys, ["a", "b", "c"]);
    }

    #[test]
    fn asks_without_keys_are_numbered_in_the_order_asked() {
        let answer =
            json!({ "role": "assistant", "model": "m", "content": { "type": "text", "text": "yes" } });
        let round = Round::new(HashMap::from([("sample_2".to_owned(), answer.clone())]));
        assert_eq!(round.ask("roots/list", json!({}), None), None);
        assert_eq!(round.ask("sampling/createMessage", json!({}), None), Some(answer));
        assert_eq!(round.ask("elicitation/create", json!({}), Some("name")), None);
        let keys: Vec<String> = round.take_asked().into_iter().map(|r| r.key).collect();
        assert_eq!(keys, ["roots_1", "name"]);
    }
}
