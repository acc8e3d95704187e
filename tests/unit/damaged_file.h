// SPDX-License-Identifier: Apache-2.0
// A file damaged in place, as `dd conv=notrunc` from a bad disk or a careless copy leaves it: the
// store tests use it to check that a damaged store is refused and left as it was.
#pragma once

#include <fstream>
#include <random>
#include <sstream>
#include <string>

namespace drasim::test_support {

/// The file's bytes.
inline std::string bytesOf(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// Overwrites `length` bytes of `path` from `offset` with garbage (the same for every run); returns
/// the file's bytes afterwards.
inline std::string overwriteWithGarbage(const std::string& path, size_t offset, size_t length)
{
    std::mt19937 rng(4);
    std::string garbage(length, '\0');
    for (char& c : garbage)
        c = char(rng() & 0xff);
    {
        std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(std::streamoff(offset));
        f.write(garbage.data(), std::streamsize(garbage.size()));
    }
    return bytesOf(path);
}

} // namespace drasim::test_support
