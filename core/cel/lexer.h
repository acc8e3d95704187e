// SPDX-License-Identifier: Apache-2.0
#pragma once

// Tokeniser for the CEL grammar (cel.md §2): literals with all quoting and escape forms,
// identifiers, keywords, operators and the optional-selection punctuation `.?` / `[?`.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace drasim::cel {

enum class Tok {
    End,
    Error,
    Ident,
    Int, ///< text holds the digits; the parser checks the range (a leading '-' may join)
    Uint,
    Double,
    String,
    Bytes,
    True,
    False,
    Null,
    In,
    LParen,
    RParen,
    LBracket,
    LBracketQuestion, ///< "[?"
    RBracket,
    LBrace,
    RBrace,
    Dot,
    DotQuestion, ///< ".?"
    Comma,
    Colon,
    Question,
    Not,
    Minus,
    Plus,
    Star,
    Slash,
    Percent,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
};

struct Token
{
    Tok kind = Tok::End;
    size_t offset = 0; ///< byte offset of the first character in the expression
    std::string text; ///< identifier, number digits, decoded string/bytes, or error message
    bool hex = false; ///< Int/Uint written as 0x...
};

/// Splits an expression into tokens. Stops at the first error (a Tok::Error token whose text is
/// the message, located at the offending character).
std::vector<Token> tokenize(std::string_view source);

} // namespace drasim::cel
