//! Error types (R35): an illegal move names the rule, malformed notation the field and the
//! position, a malformed JSON document the path.

use std::fmt;

/// A well-formed move that the rules do not allow now (R35). `rule` is the rule that forbids it
/// (`"R12"`), chosen by the order of checks R35 gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The rule id, e.g. `"R12"`.
    pub rule: &'static str,
    /// Why, starting with the rule id.
    pub message: String,
}

impl IllegalMove {
    pub(crate) fn new(rule: &'static str, why: impl fmt::Display) -> Self {
        IllegalMove { rule, message: format!("{rule}: {why}") }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
impl std::error::Error for IllegalMove {}

/// Malformed notation (NOTATION.md, "Errors: which one, and where").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    /// `move`, `rules`, or the state/observation field at fault.
    pub field: String,
    /// 0-based offset in characters (code points) of the whole text.
    pub position: usize,
    /// Free text.
    pub message: String,
}

impl NotationError {
    pub(crate) fn new(field: &str, position: usize, message: impl Into<String>) -> Self {
        NotationError { field: field.to_string(), position, message: message.into() }
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} at position {}", self.field, self.message, self.position)
    }
}
impl std::error::Error for NotationError {}

/// A JSON text that is not a valid document of its type (NOTATION.md, "JSON").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    /// The JSON path of the offending value (`$`, `$.deck[0]`).
    pub path: String,
    /// Free text.
    pub message: String,
}

impl JsonError {
    pub(crate) fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        JsonError { path: path.into(), message: message.into() }
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}
impl std::error::Error for JsonError {}

/// Any other refusal: a value outside the engine's capacity, a request outside its phase
/// (`chance_outcomes` outside CHANCE, R6), an inconsistent observation (R38).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidInput {
    /// The field at fault.
    pub field: String,
    /// Free text.
    pub message: String,
}

impl InvalidInput {
    /// The refusal of `field` with `message` (used by the players of `hatsuden-players` too).
    pub fn new(field: &str, message: impl Into<String>) -> Self {
        InvalidInput { field: field.to_string(), message: message.into() }
    }
}

impl fmt::Display for InvalidInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}
impl std::error::Error for InvalidInput {}

/// Every error of the library.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// See [`IllegalMove`].
    Illegal(IllegalMove),
    /// See [`NotationError`].
    Notation(NotationError),
    /// See [`JsonError`].
    Json(JsonError),
    /// See [`InvalidInput`].
    Invalid(InvalidInput),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Illegal(e) => e.fmt(f),
            Error::Notation(e) => e.fmt(f),
            Error::Json(e) => e.fmt(f),
            Error::Invalid(e) => e.fmt(f),
        }
    }
}
impl std::error::Error for Error {}

impl From<IllegalMove> for Error {
    fn from(e: IllegalMove) -> Self {
        Error::Illegal(e)
    }
}
impl From<NotationError> for Error {
    fn from(e: NotationError) -> Self {
        Error::Notation(e)
    }
}
impl From<JsonError> for Error {
    fn from(e: JsonError) -> Self {
        Error::Json(e)
    }
}
impl From<InvalidInput> for Error {
    fn from(e: InvalidInput) -> Self {
        Error::Invalid(e)
    }
}
