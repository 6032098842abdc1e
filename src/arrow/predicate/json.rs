//! Paimon's predicate JSON.
