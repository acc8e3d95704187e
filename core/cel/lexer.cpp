// SPDX-License-Identifier: Apache-2.0
#include "core/cel/lexer.h"

#include <cctype>

#include "core/cel/text_chars.h"

namespace drasim::cel {

namespace {

bool isIdentStart(char c)
{
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isIdentChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool isHex(char c)
{
    return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}
int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    return (std::tolower(static_cast<unsigned char>(c)) - 'a') + 10;
}

class Lexer
{
public:
    explicit Lexer(std::string_view s)
        : m_s(s)
    { }

    std::vector<Token> run()
    {
        std::vector<Token> out;
        for (;;) {
            skipSpace();
            Token t = next();
            bool stop = t.kind == Tok::End || t.kind == Tok::Error;
            out.push_back(std::move(t));
            if (stop)
                break;
        }
        return out;
    }

private:
    std::string_view m_s;
    size_t m_pos = 0;

    char peek(size_t ahead = 0) const { return m_pos + ahead < m_s.size() ? m_s[m_pos + ahead] : '\0'; }
    bool atEnd() const { return m_pos >= m_s.size(); }

    void skipSpace()
    {
        while (!atEnd()) {
            char c = peek();
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f') {
                ++m_pos;
            } else if (c == '/' && peek(1) == '/') {
                while (!atEnd() && peek() != '\n')
                    ++m_pos;
            } else {
                break;
            }
        }
    }

    static Token make(Tok k, size_t at, std::string text = {})
    {
        Token t;
        t.kind = k;
        t.offset = at;
        t.text = std::move(text);
        return t;
    }
    static Token error(size_t at, std::string msg) { return make(Tok::Error, at, std::move(msg)); }

    Token next()
    {
        size_t start = m_pos;
        if (atEnd())
            return make(Tok::End, start);
        char c = peek();
        // String prefixes: r, b, rb, br (any case) directly followed by a quote.
        if (c == 'r' || c == 'R' || c == 'b' || c == 'B') {
            bool raw = false, bytes = false;
            size_t p = m_pos;
            for (int k = 0; k < 2 && p < m_s.size(); ++k) {
                char x = m_s[p];
                if ((x == 'r' || x == 'R') && !raw) {
                    raw = true;
                    ++p;
                } else if ((x == 'b' || x == 'B') && !bytes) {
                    bytes = true;
                    ++p;
                } else {
                    break;
                }
            }
            if (p < m_s.size() && (m_s[p] == '"' || m_s[p] == '\'')) {
                m_pos = p;
                return lexString(start, raw, bytes);
            }
        }
        if (isIdentStart(c)) {
            while (!atEnd() && isIdentChar(peek()))
                ++m_pos;
            std::string id(m_s.substr(start, m_pos - start));
            if (id == "true")
                return make(Tok::True, start);
            if (id == "false")
                return make(Tok::False, start);
            if (id == "null")
                return make(Tok::Null, start);
            if (id == "in")
                return make(Tok::In, start);
            return make(Tok::Ident, start, std::move(id));
        }
        if (isDigit(c) || (c == '.' && isDigit(peek(1))))
            return lexNumber(start);
        if (c == '"' || c == '\'')
            return lexString(start, false, false);
        ++m_pos;
        switch (c) {
        case '(':
            return make(Tok::LParen, start);
        case ')':
            return make(Tok::RParen, start);
        case '[':
            if (peek() == '?') {
                ++m_pos;
                return make(Tok::LBracketQuestion, start);
            }
            return make(Tok::LBracket, start);
        case ']':
            return make(Tok::RBracket, start);
        case '{':
            return make(Tok::LBrace, start);
        case '}':
            return make(Tok::RBrace, start);
        case '.':
            if (peek() == '?') {
                ++m_pos;
                return make(Tok::DotQuestion, start);
            }
            return make(Tok::Dot, start);
        case ',':
            return make(Tok::Comma, start);
        case ':':
            return make(Tok::Colon, start);
        case '?':
            return make(Tok::Question, start);
        case '+':
            return make(Tok::Plus, start);
        case '-':
            return make(Tok::Minus, start);
        case '*':
            return make(Tok::Star, start);
        case '/':
            return make(Tok::Slash, start);
        case '%':
            return make(Tok::Percent, start);
        case '!':
            if (peek() == '=') {
                ++m_pos;
                return make(Tok::Ne, start);
            }
            return make(Tok::Not, start);
        case '=':
            if (peek() == '=') {
                ++m_pos;
                return make(Tok::Eq, start);
            }
            return error(start, "Syntax error: token recognition error at: '='");
        case '<':
            if (peek() == '=') {
                ++m_pos;
                return make(Tok::Le, start);
            }
            return make(Tok::Lt, start);
        case '>':
            if (peek() == '=') {
                ++m_pos;
                return make(Tok::Ge, start);
            }
            return make(Tok::Gt, start);
        case '&':
            if (peek() == '&') {
                ++m_pos;
                return make(Tok::And, start);
            }
            return error(start, "Syntax error: token recognition error at: '&'");
        case '|':
            if (peek() == '|') {
                ++m_pos;
                return make(Tok::Or, start);
            }
            return error(start, "Syntax error: token recognition error at: '|'");
        default:
            break;
        }
        return error(start, std::string("Syntax error: token recognition error at: '") + c + "'");
    }

    Token lexNumber(size_t start)
    {
        if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
            m_pos += 2;
            size_t digits = m_pos;
            while (!atEnd() && isHex(peek()))
                ++m_pos;
            if (m_pos == digits)
                return error(start, "Syntax error: token recognition error at: '0x'");
            Token t = make(Tok::Int, start, std::string(m_s.substr(digits, m_pos - digits)));
            t.hex = true;
            if (peek() == 'u' || peek() == 'U') {
                ++m_pos;
                t.kind = Tok::Uint;
            }
            return t;
        }
        bool isDouble = false;
        while (!atEnd() && isDigit(peek()))
            ++m_pos;
        if (peek() == '.' && isDigit(peek(1))) {
            isDouble = true;
            ++m_pos;
            while (!atEnd() && isDigit(peek()))
                ++m_pos;
        }
        if (peek() == 'e' || peek() == 'E') {
            size_t save = m_pos;
            ++m_pos;
            if (peek() == '+' || peek() == '-')
                ++m_pos;
            if (isDigit(peek())) {
                isDouble = true;
                while (!atEnd() && isDigit(peek()))
                    ++m_pos;
            } else {
                m_pos = save;
            }
        }
        std::string text(m_s.substr(start, m_pos - start));
        if (isDouble)
            return make(Tok::Double, start, std::move(text));
        if (peek() == 'u' || peek() == 'U') {
            ++m_pos;
            return make(Tok::Uint, start, std::move(text));
        }
        return make(Tok::Int, start, std::move(text));
    }

    Token lexString(size_t start, bool raw, bool bytes)
    {
        char q = peek();
        bool triple = peek(1) == q && peek(2) == q;
        m_pos += triple ? 3 : 1;
        std::string out;
        for (;;) {
            if (atEnd())
                return error(start, "Syntax error: token recognition error at: unterminated string literal");
            char c = peek();
            if (triple) {
                if (c == q && peek(1) == q && peek(2) == q) {
                    m_pos += 3;
                    break;
                }
            } else {
                if (c == q) {
                    ++m_pos;
                    break;
                }
                if (c == '\n' || c == '\r')
                    return error(
                        start, "Syntax error: token recognition error at: newline in string literal");
            }
            if (c == '\\' && !raw) {
                size_t escAt = m_pos;
                ++m_pos;
                if (atEnd())
                    return error(escAt, "Syntax error: token recognition error at: '\\'");
                char e = peek();
                ++m_pos;
                switch (e) {
                case 'a':
                    out += '\a';
                    continue;
                case 'b':
                    out += '\b';
                    continue;
                case 'f':
                    out += '\f';
                    continue;
                case 'n':
                    out += '\n';
                    continue;
                case 'r':
                    out += '\r';
                    continue;
                case 't':
                    out += '\t';
                    continue;
                case 'v':
                    out += '\v';
                    continue;
                case '\\':
                case '?':
                case '"':
                case '\'':
                case '`':
                    out += e;
                    continue;
                case 'x':
                case 'X':
                case 'u':
                case 'U': {
                    int len = (e == 'x' || e == 'X') ? 2 : (e == 'u' ? 4 : 8);
                    if (bytes && (e == 'u' || e == 'U'))
                        return error(escAt, "Syntax error: invalid escape sequence in bytes literal");
                    uint32_t cp = 0;
                    for (int k = 0; k < len; ++k) {
                        if (!isHex(peek()))
                            return error(escAt, "Syntax error: invalid escape sequence");
                        cp = cp * 16 + uint32_t(hexValue(peek()));
                        ++m_pos;
                    }
                    if (bytes && len == 2) {
                        out += char(cp); // \xHH is one octet in bytes literals
                        continue;
                    }
                    if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
                        return error(escAt, "Syntax error: invalid unicode code point in escape sequence");
                    appendUtf8(out, cp);
                    continue;
                }
                default:
                    break;
                }
                if (e >= '0' && e <= '3') {
                    uint32_t cp = uint32_t(e - '0');
                    for (int k = 0; k < 2; ++k) {
                        if (peek() < '0' || peek() > '7')
                            return error(escAt, "Syntax error: invalid octal escape sequence");
                        cp = cp * 8 + uint32_t(peek() - '0');
                        ++m_pos;
                    }
                    if (bytes)
                        out += char(cp);
                    else
                        appendUtf8(out, cp);
                    continue;
                }
                return error(escAt, std::string("Syntax error: token recognition error at: '\\") + e + "'");
            }
            out += c;
            ++m_pos;
        }
        return make(bytes ? Tok::Bytes : Tok::String, start, std::move(out));
    }
};

} // namespace

std::vector<Token> tokenize(std::string_view source)
{
    return Lexer(source).run();
}

} // namespace drasim::cel
