// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace drasim::workload {

/// splitmix64 step: used to expand one seed into a full generator state and to derive
/// independent seeds (workload index, job type, ...).
uint64_t splitMix64(uint64_t& state);
/// A one-shot mix of two values, for deriving sub-seeds.
uint64_t mixSeed(uint64_t a, uint64_t b);

/// xoshiro256** plus our own distribution code. std:: distributions are implementation-defined
/// (libstdc++ and libc++ give different numbers for the same engine), so nothing here uses them:
/// the same seed yields the same stream with any standard library.
class Rng
{
public:
    explicit Rng(uint64_t seed = 0);

    uint64_t nextU64();
    /// Uniform in [0, 1) with 53 random bits.
    double uniform01();
    /// Uniform in (0, 1]: safe for log().
    double uniformOpen0();
    /// Uniform integer in [0, n) without modulo bias (rejection); n must be > 0.
    uint64_t below(uint64_t n);
    /// Exponential with the given mean (inverse transform).
    double exponential(double mean);
    /// Standard normal (Marsaglia polar method; the spare value is cached).
    double normal();

private:
    uint64_t m_s[4];
    bool m_hasSpare = false;
    double m_spare = 0;
};

/// Fisher-Yates with the stream's own draws (std::shuffle's are implementation-defined): the same
/// seed orders a list the same way with any standard library. Swaps the last of the i first items
/// with one of them drawn by rng.below(i), for i from the size down to 2.
template <typename T> void shuffle(std::vector<T>& items, Rng& rng)
{
    for (size_t i = items.size(); i > 1; --i)
        std::swap(items[i - 1], items[size_t(rng.below(i))]);
}

} // namespace drasim::workload
