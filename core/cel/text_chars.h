// SPDX-License-Identifier: Apache-2.0
#pragma once

// Character helpers the lexer, the format and url functions and the time parser share.

#include <cstdint>
#include <string>

namespace drasim::cel {

/// An ASCII decimal digit, whatever the locale (std::isdigit follows it).
inline bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

/// Appends the code point `cp` to `out` encoded as UTF-8.
inline void appendUtf8(std::string& out, uint32_t cp)
{
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += char(0xE0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    } else {
        out += char(0xF0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3F));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    }
}

} // namespace drasim::cel
