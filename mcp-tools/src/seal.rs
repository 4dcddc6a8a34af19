//! Sealing: authenticated encryption of the state a server hands a client to hand back
//! (`requestState` in revision 2026-07-28), so the client can neither read nor alter it,
//! nor move it to another context. XChaCha20-Poly1305 (RustCrypto's `chacha20poly1305`):
//! its 24-byte nonces are safe to draw at random, so a fleet of servers sharing keys needs
//! no nonce coordination.
//!
//! A sealed value is the URL-safe base64 (no padding) of `version ‖ nonce ‖ ciphertext`,
//! where the ciphertext carries its 16-byte tag. The context the state belongs to (which
//! tool, which arguments, which caller) is the associated data: it is authenticated but
//! never sent, so state sealed for one context does not open in another.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use std::fmt;
use std::sync::Arc;

/// The format's version byte: a future format can be told apart, and refused by this one.
const VERSION: u8 = 1;
const NONCE_BYTES: usize = 24;
const TAG_BYTES: usize = 16;

/// A 256-bit key that seals the state a server hands to clients (`requestState`).
///
/// Servers that share clients (instances behind a load balancer) must share keys: give
/// them the same [`KeyRing`]. A key's bytes are never printed.
///
/// ```
/// use mcp_toolkit::seal::SealKey;
///
/// let key = SealKey::from_base64("q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA=")?;
/// assert_eq!(format!("{key:?}"), "SealKey(..)");
/// assert!(SealKey::from_base64("c2hvcnQ=").is_err()); // 5 bytes, not 32
/// # Ok::<(), mcp_toolkit::seal::SealKeyError>(())
/// ```
#[derive(Clone)]
pub struct SealKey {
    cipher: XChaCha20Poly1305,
}

/// Why bytes or text are not a [`SealKey`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SealKeyError {
    /// The text is not base64 (standard or URL-safe, padded or not).
    #[error("a seal key must be base64 (standard or URL-safe): {0}")]
    NotBase64(String),
    /// The key is not 32 bytes long.
    #[error("a seal key is 32 bytes; this one is {0}")]
    WrongLength(usize),
    /// The system's random source failed.
    #[error("the system's random source failed: {0}")]
    NoRandomness(String),
    /// A list of keys ([`KeyRing::from_base64_list`]) holds none.
    #[error("a key ring needs at least one key; the list is empty")]
    NoKeys,
    /// A key of a list ([`KeyRing::from_base64_list`]) is not a key.
    #[error("key {position} of the list: {error}")]
    InList {
        /// Which key, counted from 1.
        position: usize,
        /// What is wrong with it.
        error: Box<SealKeyError>,
    },
}

impl SealKey {
    /// A key from 32 bytes (from a secret store, say).
    ///
    /// ```
    /// let key = mcp_toolkit::seal::SealKey::from_bytes([7; 32]);
    /// # let _ = key;
    /// ```
    pub fn from_bytes(bytes: [u8; 32]) -> SealKey {
        SealKey {
            cipher: XChaCha20Poly1305::new(&bytes.into()),
        }
    }

    /// A key from its base64 text, standard or URL-safe, padded or not: the form to keep
    /// in an environment variable (`openssl rand -base64 32` makes one).
    ///
    /// ```
    /// use mcp_toolkit::{seal::SealKey, seal::SealKeyError};
    ///
    /// assert!(SealKey::from_base64("q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA").is_ok());
    /// assert_eq!(SealKey::from_base64("AAAA").unwrap_err(), SealKeyError::WrongLength(3));
    /// ```
    pub fn from_base64(text: &str) -> Result<SealKey, SealKeyError> {
        let text = text.trim().trim_end_matches('=');
        let bytes = URL_SAFE_NO_PAD
            .decode(text.replace('+', "-").replace('/', "_"))
            .map_err(|e| SealKeyError::NotBase64(e.to_string()))?;
        let bytes: [u8; 32] = bytes
            .as_slice()
            .try_into()
            .map_err(|_| SealKeyError::WrongLength(bytes.len()))?;
        Ok(SealKey::from_bytes(bytes))
    }

    /// A new key from the system's random source. A server that is not given keys makes
    /// one of these at start: its sealed state opens only in that process.
    ///
    /// ```
    /// let key = mcp_toolkit::seal::SealKey::generate()?;
    /// # let _ = key;
    /// # Ok::<(), mcp_toolkit::seal::SealKeyError>(())
    /// ```
    pub fn generate() -> Result<SealKey, SealKeyError> {
        let mut bytes = [0_u8; 32];
        getrandom::fill(&mut bytes).map_err(|e| SealKeyError::NoRandomness(e.to_string()))?;
        Ok(SealKey::from_bytes(bytes))
    }
}

impl fmt::Debug for SealKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SealKey(..)")
    }
}

/// The keys a server seals state with: the first seals, every one opens. To rotate, put
/// the new key first and keep the old one until state sealed with it has expired.
///
/// ```
/// use mcp_toolkit::{seal::KeyRing, seal::SealKey};
///
/// let old = SealKey::from_bytes([1; 32]);
/// let new = SealKey::from_bytes([2; 32]);
/// let ring = KeyRing::new(new).with_key(old); // seals with `new`, opens with both
/// assert_eq!(ring.len(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct KeyRing {
    keys: Arc<Vec<SealKey>>,
}

impl KeyRing {
    /// A ring of one key, which seals and opens.
    pub fn new(key: SealKey) -> KeyRing {
        KeyRing {
            keys: Arc::new(vec![key]),
        }
    }

    /// A ring from the base64 text of its keys separated by commas, the key that seals
    /// first: the form to keep in one environment variable or secret (a server's command
    /// line reads `MCP_TOOLKIT_REQUEST_STATE_KEYS` so). Each key is read as
    /// [`SealKey::from_base64`] reads it; spaces and line breaks around a key are ignored. An
    /// empty list, or an empty or malformed key, is an error that says which key (never its
    /// bytes).
    ///
    /// ```
    /// use mcp_toolkit::{seal::KeyRing, seal::SealKeyError};
    ///
    /// // To rotate: the new key first, the old one kept until its states have expired.
    /// let new = "q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA=";
    /// let old = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8";
    /// assert_eq!(KeyRing::from_base64_list(&format!("{new}, {old}"))?.len(), 2);
    ///
    /// let error = KeyRing::from_base64_list(&format!("{new},c2hvcnQ=")).unwrap_err();
    /// assert_eq!(error.to_string(), "key 2 of the list: a seal key is 32 bytes; this one is 5");
    /// assert_eq!(KeyRing::from_base64_list(" ").unwrap_err(), SealKeyError::NoKeys);
    /// # Ok::<(), SealKeyError>(())
    /// ```
    pub fn from_base64_list(text: &str) -> Result<KeyRing, SealKeyError> {
        if text.trim().is_empty() {
            return Err(SealKeyError::NoKeys);
        }
        let keys = text
            .split(',')
            .enumerate()
            .map(|(at, key)| {
                SealKey::from_base64(key).map_err(|error| SealKeyError::InList {
                    position: at + 1,
                    error: Box::new(error),
                })
            })
            .collect::<Result<Vec<SealKey>, SealKeyError>>()?;
        Ok(KeyRing { keys: Arc::new(keys) })
    }

    /// Adds a key that opens state but does not seal it (a key being rotated out).
    pub fn with_key(mut self, key: SealKey) -> KeyRing {
        Arc::make_mut(&mut self.keys).push(key);
        self
    }

    /// How many keys the ring holds.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the ring is empty: never, as a ring is made with a key.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Seals `plaintext` for the context `context`, with the first key.
    pub(crate) fn seal(&self, context: &[u8], plaintext: &[u8]) -> Result<String, SealKeyError> {
        let mut nonce = [0_u8; NONCE_BYTES];
        getrandom::fill(&mut nonce).map_err(|e| SealKeyError::NoRandomness(e.to_string()))?;
        let payload = Payload {
            msg: plaintext,
            aad: context,
        };
        let ciphertext = self.keys[0]
            .cipher
            .encrypt(&XNonce::from(nonce), payload)
            .map_err(|_| SealKeyError::NoRandomness("the cipher refused the message".into()))?;
        let mut sealed = Vec::with_capacity(1 + NONCE_BYTES + ciphertext.len());
        sealed.push(VERSION);
        sealed.extend_from_slice(&nonce);
        sealed.extend_from_slice(&ciphertext);
        Ok(URL_SAFE_NO_PAD.encode(sealed))
    }

    /// Opens what [`seal`](KeyRing::seal) made for the same `context`, with any key of the
    /// ring; `None` when the text was altered, made for another context, or sealed with a
    /// key the ring does not hold. Which of these it was is not told, on purpose.
    pub(crate) fn open(&self, context: &[u8], sealed: &str) -> Option<Vec<u8>> {
        let bytes = URL_SAFE_NO_PAD.decode(sealed).ok()?;
        if bytes.len() < 1 + NONCE_BYTES + TAG_BYTES || bytes[0] != VERSION {
            return None;
        }
        let nonce: [u8; NONCE_BYTES] = bytes[1..1 + NONCE_BYTES].try_into().ok()?;
        let nonce = XNonce::from(nonce);
        let ciphertext = &bytes[1 + NONCE_BYTES..];
        self.keys.iter().find_map(|key| {
            let payload = Payload {
                msg: ciphertext,
                aad: context,
            };
            key.cipher.decrypt(&nonce, payload).ok()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring(byte: u8) -> KeyRing {
        KeyRing::new(SealKey::from_bytes([byte; 32]))
    }

    #[test]
    fn sealed_text_opens_in_its_own_context_only() {
        let keys = ring(1);
        let sealed = keys.seal(b"tool a", b"the answers").unwrap();
        assert_eq!(
            keys.open(b"tool a", &sealed).as_deref(),
            Some(&b"the answers"[..])
        );
        assert_eq!(keys.open(b"tool b", &sealed), None);
        assert!(!sealed.contains("answers"), "the plaintext is not readable");
    }

    #[test]
    fn any_change_to_the_sealed_text_is_refused() {
        let keys = ring(1);
        let sealed = keys.seal(b"cx", b"state").unwrap();
        assert_eq!(keys.open(b"cx", &format!("{sealed}-TAMPERED")), None);
        assert_eq!(keys.open(b"cx", &sealed[..sealed.len() - 1]), None);
        let mut bytes = URL_SAFE_NO_PAD.decode(&sealed).unwrap();
        for at in [0, 1, 30, bytes.len() - 1] {
            bytes[at] ^= 1;
            assert_eq!(
                keys.open(b"cx", &URL_SAFE_NO_PAD.encode(&bytes)),
                None,
                "byte {at}"
            );
            bytes[at] ^= 1;
        }
        assert_eq!(keys.open(b"cx", ""), None);
        assert_eq!(keys.open(b"cx", "not base64 at all!"), None);
    }

    #[test]
    fn a_ring_seals_with_its_first_key_and_opens_with_all() {
        let old = ring(1);
        let rotated = ring(2).with_key(SealKey::from_bytes([1; 32]));
        let by_old = old.seal(b"cx", b"state").unwrap();
        let by_new = rotated.seal(b"cx", b"state").unwrap();
        assert!(rotated.open(b"cx", &by_old).is_some());
        assert!(rotated.open(b"cx", &by_new).is_some());
        assert!(
            old.open(b"cx", &by_new).is_none(),
            "the old ring lacks the new key"
        );
        assert!(ring(3).open(b"cx", &by_old).is_none());
    }

    #[test]
    fn every_seal_draws_a_fresh_nonce() {
        let keys = ring(1);
        assert_ne!(
            keys.seal(b"cx", b"same").unwrap(),
            keys.seal(b"cx", b"same").unwrap()
        );
    }

    #[test]
    fn a_ring_reads_from_a_list_the_sealing_key_first() {
        let text = |byte: u8| URL_SAFE_NO_PAD.encode([byte; 32]);
        let listed = KeyRing::from_base64_list(&format!(" {},\n{} ", text(2), text(1))).unwrap();
        assert_eq!(listed.len(), 2);
        let by_listed = listed.seal(b"cx", b"state").unwrap();
        assert!(ring(2).open(b"cx", &by_listed).is_some(), "the first key seals");
        assert!(ring(1).open(b"cx", &by_listed).is_none());
        let by_old = ring(1).seal(b"cx", b"state").unwrap();
        assert!(listed.open(b"cx", &by_old).is_some(), "every key opens");
        assert_eq!(KeyRing::from_base64_list(&text(3)).unwrap().len(), 1);
    }

    #[test]
    fn a_list_that_is_not_keys_says_which_key() {
        let key = URL_SAFE_NO_PAD.encode([1; 32]);
        let error = |text: &str| KeyRing::from_base64_list(text).unwrap_err();
        assert_eq!(error(""), SealKeyError::NoKeys);
        assert_eq!(error(" \n"), SealKeyError::NoKeys);
        assert_eq!(
            error(&format!("{key},")),
            SealKeyError::InList {
                position: 2,
                error: Box::new(SealKeyError::WrongLength(0))
            }
        );
        assert_eq!(
            error(&format!("{key},,{key}")).to_string(),
            "key 2 of the list: a seal key is 32 bytes; this one is 0"
        );
        assert_eq!(
            error(&format!("{key} {key}")).to_string(),
            "key 1 of the list: a seal key must be base64 (standard or URL-safe): Invalid symbol 32, offset 43."
        );
        let secret = "c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0";
        let said = error(&format!("{key};{secret}")).to_string();
        assert!(said.starts_with("key 1 of the list: "), "{said}");
        assert!(
            !said.contains(secret) && !said.contains(&key),
            "a key is never said: {said}"
        );
    }

    #[test]
    fn keys_read_from_base64_in_either_alphabet() {
        let bytes = [0xfb_u8; 32]; // encodes with `+`/`/` in the standard alphabet
        let standard = base64::engine::general_purpose::STANDARD.encode(bytes);
        let sealed = KeyRing::new(SealKey::from_bytes(bytes))
            .seal(b"cx", b"x")
            .unwrap();
        for text in [
            standard.clone(),
            URL_SAFE_NO_PAD.encode(bytes),
            format!(" {standard}\n"),
        ] {
            let ring = KeyRing::new(SealKey::from_base64(&text).unwrap());
            assert!(ring.open(b"cx", &sealed).is_some(), "{text:?}");
        }
        assert!(matches!(
            SealKey::from_base64("!!"),
            Err(SealKeyError::NotBase64(_))
        ));
    }
}
