// SPDX-License-Identifier: Apache-2.0
#include "core/workload/rng.h"

#include <cmath>

namespace drasim::workload {

uint64_t splitMix64(uint64_t& state)
{
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t mixSeed(uint64_t a, uint64_t b)
{
    uint64_t s = a ^ (b * 0xd1b54a32d192ed03ULL);
    splitMix64(s);
    return splitMix64(s);
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

Rng::Rng(uint64_t seed)
{
    uint64_t s = seed;
    for (uint64_t& word : m_s)
        word = splitMix64(s);
}

uint64_t Rng::nextU64()
{
    const uint64_t result = rotl(m_s[1] * 5, 7) * 9;
    const uint64_t t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = rotl(m_s[3], 45);
    return result;
}

double Rng::uniform01()
{
    return double(nextU64() >> 11) * 0x1.0p-53;
}

double Rng::uniformOpen0()
{
    return double((nextU64() >> 11) + 1) * 0x1.0p-53;
}

uint64_t Rng::below(uint64_t n)
{
    // Reject the top partial block so every residue is equally likely.
    const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do {
        x = nextU64();
    } while (x >= limit);
    return x % n;
}

double Rng::exponential(double mean)
{
    return -mean * std::log(uniformOpen0());
}

double Rng::normal()
{
    if (m_hasSpare) {
        m_hasSpare = false;
        return m_spare;
    }
    double u, v, s;
    do {
        u = 2.0 * uniform01() - 1.0;
        v = 2.0 * uniform01() - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    const double f = std::sqrt(-2.0 * std::log(s) / s);
    m_spare = v * f;
    m_hasSpare = true;
    return u * f;
}

} // namespace drasim::workload
