//! x86_64 kernels. Each module holds a zero-sized token type whose constructor
//! proves the CPU feature, so its `expand` method is safe to call.

pub(crate) mod avx2;
pub(crate) mod avx2_indices;
pub(crate) mod avx512;
pub(crate) mod avx512_indices;
pub(crate) mod sse2;
