//! W3C Trace Context from a request's `_meta` (SEP-414): `traceparent` and `tracestate`,
//! read as the W3C Trace Context recommendation reads the headers of the same names, and
//! made the remote parent of the request's span (the `otel` feature) by a middleware.
//!
//! A `traceparent` that does not follow the recommendation is ignored, as the
//! recommendation asks: the request then starts a trace of its own. A `tracestate` is read
//! only beside a valid `traceparent`; an invalid one is dropped and the parent kept.

use crate::middleware::{Flow, Middleware, Request};
use opentelemetry::trace::{SpanContext, SpanId, TraceContextExt, TraceFlags, TraceId, TraceState};
use serde_json::{Map, Value};
use std::str::FromStr;
use tracing_opentelemetry::OpenTelemetrySpanExt;

/// A `traceparent`, parsed: who the caller's span is, and whether it was sampled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TraceParent {
    pub(crate) trace_id: [u8; 16],
    pub(crate) parent_id: [u8; 8],
    /// The flags of the recommendation this parser knows: only `sampled` (`0x01`).
    pub(crate) flags: u8,
}

/// Why a `traceparent` was ignored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub(crate) enum InvalidTraceParent {
    #[error("`traceparent` is {0} characters; version `00` has 55")]
    Length(usize),
    #[error("`traceparent` does not start with a version of two lowercase hex digits other than `ff`")]
    Version,
    #[error("the trace id of `traceparent` is not 32 lowercase hex digits, not all zero")]
    TraceId,
    #[error("the parent id of `traceparent` is not 16 lowercase hex digits, not all zero")]
    ParentId,
    #[error("the flags of `traceparent` are not two lowercase hex digits")]
    Flags,
    #[error("`traceparent` fields are not separated by `-`")]
    Separator,
}

/// The length of a version `00` `traceparent`: `vv-<32>-<16>-ff`.
const VERSION_00_LEN: usize = 55;

impl TraceParent {
    /// Parses a `traceparent` value by the W3C Trace Context rules: two lowercase hex digits
    /// of version (not `ff`), a 32-digit trace id and a 16-digit parent id (lowercase hex,
    /// not all zero) and two digits of flags, joined by `-`. Version `00` is exactly that; a
    /// later version may add fields after the flags, each after a `-`, which are ignored.
    pub(crate) fn parse(text: &str) -> Result<TraceParent, InvalidTraceParent> {
        let bytes = text.as_bytes();
        if bytes.len() < VERSION_00_LEN {
            return Err(InvalidTraceParent::Length(bytes.len()));
        }
        let version = lower_hex::<1>(&bytes[0..2]).ok_or(InvalidTraceParent::Version)?[0];
        if version == 0xff {
            return Err(InvalidTraceParent::Version);
        }
        if version == 0x00 && bytes.len() != VERSION_00_LEN {
            return Err(InvalidTraceParent::Length(bytes.len()));
        }
        // Past the 55 characters every version shares, a later version goes on after a `-`.
        if bytes.len() > VERSION_00_LEN && bytes[VERSION_00_LEN] != b'-' {
            return Err(InvalidTraceParent::Flags);
        }
        if bytes[2] != b'-' || bytes[35] != b'-' || bytes[52] != b'-' {
            return Err(InvalidTraceParent::Separator);
        }
        let trace_id = lower_hex::<16>(&bytes[3..35])
            .filter(|id| id.iter().any(|&b| b != 0))
            .ok_or(InvalidTraceParent::TraceId)?;
        let parent_id = lower_hex::<8>(&bytes[36..52])
            .filter(|id| id.iter().any(|&b| b != 0))
            .ok_or(InvalidTraceParent::ParentId)?;
        let flags = lower_hex::<1>(&bytes[53..55]).ok_or(InvalidTraceParent::Flags)?[0];
        Ok(TraceParent {
            trace_id,
            parent_id,
            flags: flags & TraceFlags::SAMPLED.to_u8(),
        })
    }

    /// The caller's span, as OpenTelemetry holds a remote one.
    pub(crate) fn span_context(&self, state: TraceState) -> SpanContext {
        SpanContext::new(
            TraceId::from_bytes(self.trace_id),
            SpanId::from_bytes(self.parent_id),
            TraceFlags::new(self.flags),
            true,
            state,
        )
    }
}

/// `N` bytes from `2 * N` lowercase hex digits; `None` if any is not one.
fn lower_hex<const N: usize>(digits: &[u8]) -> Option<[u8; N]> {
    fn nibble(digit: u8) -> Option<u8> {
        match digit {
            b'0'..=b'9' => Some(digit - b'0'),
            b'a'..=b'f' => Some(digit - b'a' + 10),
            _ => None,
        }
    }
    if digits.len() != 2 * N {
        return None;
    }
    let mut out = [0u8; N];
    for (byte, pair) in out.iter_mut().zip(digits.chunks_exact(2)) {
        *byte = (nibble(pair[0])? << 4) | nibble(pair[1])?;
    }
    Some(out)
}

/// The built-in middleware that makes the remote span a request's `_meta` names the parent
/// of the request's span. It is the outermost of a server built with the `otel` feature, so
/// it sets the parent before any other middleware could start the span; it reads `_meta`
/// only when a subscriber records the span.
pub(crate) struct TraceContext;

impl Middleware for TraceContext {
    fn on_request(&self, request: &mut Request<'_>) -> Flow {
        if !request.span().is_disabled()
            && let Some(parent) = remote_parent(request.meta())
        {
            let context = opentelemetry::Context::new().with_remote_span_context(parent);
            if let Err(error) = request.span().set_parent(context) {
                tracing::trace!(%error, "the request's trace context has no OpenTelemetry span to go to");
            }
        }
        Flow::Continue
    }
}

/// The remote span a request's `_meta` names, if it names one validly; a member of another
/// type than a string reads as absent.
pub(crate) fn remote_parent(meta: &Map<String, Value>) -> Option<SpanContext> {
    let traceparent = meta.get("traceparent")?.as_str()?;
    let parent = match TraceParent::parse(traceparent) {
        Ok(parent) => parent,
        Err(error) => {
            tracing::debug!(%error, "ignored the request's trace context");
            return None;
        }
    };
    let state = match meta.get("tracestate").and_then(Value::as_str) {
        Some(text) => TraceState::from_str(text).unwrap_or_else(|error| {
            tracing::debug!(%error, "ignored the request's `tracestate`");
            TraceState::NONE
        }),
        None => TraceState::NONE,
    };
    Some(parent.span_context(state))
}

#[cfg(test)]
mod tests {
    use super::*;

    const VALID: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    fn map(text: &str) -> Map<String, Value> {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn a_version_00_traceparent_is_read() {
        let parent = TraceParent::parse(VALID).unwrap();
        assert_eq!(
            TraceId::from_bytes(parent.trace_id),
            TraceId::from_hex("4bf92f3577b34da6a3ce929d0e0e4736").unwrap()
        );
        assert_eq!(
            SpanId::from_bytes(parent.parent_id),
            SpanId::from_hex("00f067aa0ba902b7").unwrap()
        );
        assert_eq!(parent.flags, 1);
        let unsampled = TraceParent::parse(&VALID.replace("-01", "-00")).unwrap();
        assert_eq!(unsampled.flags, 0);
    }

    #[test]
    fn flags_this_parser_does_not_know_are_dropped() {
        let parent = TraceParent::parse(&VALID.replace("-01", "-03")).unwrap();
        assert_eq!(parent.flags, 1);
        let parent = TraceParent::parse(&VALID.replace("-01", "-fe")).unwrap();
        assert_eq!(parent.flags, 0);
    }

    #[test]
    fn uppercase_hex_is_refused() {
        assert_eq!(
            TraceParent::parse(&VALID.replace("4bf92f", "4BF92F")),
            Err(InvalidTraceParent::TraceId)
        );
        assert_eq!(
            TraceParent::parse(&VALID.replace("00f067aa", "00F067AA")),
            Err(InvalidTraceParent::ParentId)
        );
        assert_eq!(
            TraceParent::parse(&VALID.replace("-01", "-0A")),
            Err(InvalidTraceParent::Flags)
        );
        assert_eq!(
            TraceParent::parse(&format!("0A{}", &VALID[2..])),
            Err(InvalidTraceParent::Version)
        );
    }

    #[test]
    fn all_zero_ids_are_refused() {
        let zero_trace = format!("00-{}-00f067aa0ba902b7-01", "0".repeat(32));
        assert_eq!(TraceParent::parse(&zero_trace), Err(InvalidTraceParent::TraceId));
        let zero_parent = format!("00-4bf92f3577b34da6a3ce929d0e0e4736-{}-01", "0".repeat(16));
        assert_eq!(
            TraceParent::parse(&zero_parent),
            Err(InvalidTraceParent::ParentId)
        );
    }

    #[test]
    fn wrong_lengths_are_refused() {
        // One digit short in the trace id, the parent id, the flags; one too many.
        for bad in [
            "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-011",
            "",
        ] {
            assert!(TraceParent::parse(bad).is_err(), "{bad}");
        }
        // Fields shifted: the right length, the separators in the wrong places.
        assert_eq!(
            TraceParent::parse("00-4bf92f3577b34da6a3ce929d0e0e47366-0f067aa0ba902b7-01"),
            Err(InvalidTraceParent::Separator)
        );
        // Version 00 has nothing after the flags.
        assert_eq!(
            TraceParent::parse(&format!("{VALID}-what")),
            Err(InvalidTraceParent::Length(60))
        );
    }

    #[test]
    fn a_later_version_is_read_for_the_fields_it_shares_with_00() {
        let later = format!("cc{}", &VALID[2..]);
        assert_eq!(TraceParent::parse(&later), TraceParent::parse(VALID));
        // It may go on after a `-`, and only after one.
        let longer = format!("{later}-what-the-future-will-bring");
        assert_eq!(TraceParent::parse(&longer), TraceParent::parse(VALID));
        assert_eq!(
            TraceParent::parse(&format!("{later}x")),
            Err(InvalidTraceParent::Flags)
        );
        // A later version that breaks the shared fields is as invalid as 00 would be.
        assert!(TraceParent::parse(&later.replace("4bf92f", "4BF92F")).is_err());
        // `ff` is no version at all.
        assert_eq!(
            TraceParent::parse(&format!("ff{}", &VALID[2..])),
            Err(InvalidTraceParent::Version)
        );
    }

    #[test]
    fn the_meta_names_a_remote_sampled_parent_with_its_state() {
        let meta = map(&format!(
            r#"{{"traceparent":"{VALID}","tracestate":"rojo=00f067aa0ba902b7,congo=t61rcWkgMzE","progressToken":1}}"#
        ));
        let parent = remote_parent(&meta).unwrap();
        assert!(parent.is_remote() && parent.is_valid() && parent.is_sampled());
        assert_eq!(
            parent.trace_id(),
            TraceId::from_hex("4bf92f3577b34da6a3ce929d0e0e4736").unwrap()
        );
        assert_eq!(parent.trace_state().get("rojo"), Some("00f067aa0ba902b7"));
        assert_eq!(parent.trace_state().get("congo"), Some("t61rcWkgMzE"));
    }

    #[test]
    fn an_invalid_tracestate_is_dropped_and_the_parent_kept() {
        let meta = map(&format!(
            r#"{{"traceparent":"{VALID}","tracestate":"not a list member"}}"#
        ));
        let parent = remote_parent(&meta).unwrap();
        assert_eq!(parent.trace_state().header(), "");
    }

    #[test]
    fn meta_without_a_valid_traceparent_names_no_parent() {
        for meta in [
            r#"{}"#,
            r#"{"traceparent":42}"#,
            r#"{"traceparent":"00-00000000000000000000000000000000-00f067aa0ba902b7-01"}"#,
            r#"{"tracestate":"rojo=00f067aa0ba902b7"}"#,
        ] {
            assert!(remote_parent(&map(meta)).is_none(), "{meta}");
        }
    }
}
