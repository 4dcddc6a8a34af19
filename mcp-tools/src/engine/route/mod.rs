//! Stage 7, the way in: `dispatch` (a message parsed once and routed to its method family)
//! and `layers` (the middleware around each exchange).

pub(crate) mod dispatch;
pub(crate) mod layers;
