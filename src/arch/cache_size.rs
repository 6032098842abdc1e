//! The size of the last-level cache one core sees, from CPUID: the streaming
//! threshold of [`crate::raw::stream_min_bytes`] follows it.
//!
//! Intel's leaf 4 and AMD's leaf `0x8000_001D` (with the topology
//! extensions) describe each cache in the same layout: type, level, ways,
//! partitions, line size and sets. AMD's older leaf `0x8000_0006` is not
//! used: under virtualisation it can report the L3 of the whole package
//! (320 MiB on the Zen 4 machine this was written on, whose CCD has 32 MiB).

/// The largest cache level's size in bytes, as CPUID describes it, asked once
/// per process; `None` without `std`, off x86_64, or when CPUID does not say.
pub(crate) fn last_level_cache_bytes() -> Option<usize> {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    {
        use core::sync::atomic::{AtomicUsize, Ordering};
        /// 0: not asked yet; 1: unknown; otherwise the size.
        static SIZE: AtomicUsize = AtomicUsize::new(0);
        let size = match SIZE.load(Ordering::Relaxed) {
            0 => {
                let s = x86::last_level().unwrap_or(1).max(1);
                SIZE.store(s, Ordering::Relaxed);
                s
            }
            s => s,
        };
        (size > 1).then_some(size)
    }
    #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
    {
        None
    }
}

#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod x86 {
    use core::arch::x86_64::{__cpuid, __cpuid_count, CpuidResult};

    /// `cpuid` with a sub-leaf.
    #[allow(unused_unsafe)] // safe since Rust 1.94; unsafe before.
    fn cpuid(leaf: u32, sub: u32) -> CpuidResult {
        // SAFETY: `cpuid` exists on every x86_64 CPU and only reads
        // identification registers; leaves above the maximum return zeros or
        // the highest leaf's data, which the callers check for.
        unsafe { __cpuid_count(leaf, sub) }
    }

    /// `cpuid` without a sub-leaf.
    #[allow(unused_unsafe)]
    fn cpuid0(leaf: u32) -> CpuidResult {
        // SAFETY: as in `cpuid`.
        unsafe { __cpuid(leaf) }
    }

    /// The largest cache of the deterministic cache parameters leaf.
    pub(super) fn last_level() -> Option<usize> {
        let v = cpuid0(0);
        let amd = (v.ebx, v.edx, v.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163); // "AuthenticAMD"
        let leaf = if amd {
            let max_ext = cpuid0(0x8000_0000).eax;
            let topology = cpuid0(0x8000_0001).ecx & (1 << 22) != 0;
            if max_ext < 0x8000_001D || !topology {
                return None;
            }
            0x8000_001D
        } else {
            if v.eax < 4 {
                return None;
            }
            4
        };
        let mut best: Option<(u32, usize)> = None;
        for sub in 0..16 {
            let r = cpuid(leaf, sub);
            let kind = r.eax & 0x1f; // 0: no more caches; 2: instruction cache
            if kind == 0 {
                break;
            }
            if kind == 2 {
                continue;
            }
            let level = (r.eax >> 5) & 7;
            let ways = (r.ebx >> 22) as usize + 1;
            let partitions = ((r.ebx >> 12) & 0x3ff) as usize + 1;
            let line = (r.ebx & 0xfff) as usize + 1;
            let sets = r.ecx as usize + 1;
            // Checked: a hypervisor may report any values.
            let Some(size) = ways
                .checked_mul(partitions)
                .and_then(|s| s.checked_mul(line))
                .and_then(|s| s.checked_mul(sets))
            else {
                continue;
            };
            if best.is_none_or(|(l, _)| level > l) {
                best = Some((level, size));
            }
        }
        best.map(|(_, size)| size)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_last_level_cache_is_plausible_when_known() {
        match super::last_level_cache_bytes() {
            // From 256 KiB (a small L2 as the last level) to 1 GiB.
            Some(s) => assert!((256 << 10..=1 << 30).contains(&s), "{s} bytes"),
            None => std::eprintln!("CPUID reports no cache sizes here"),
        }
    }
}
