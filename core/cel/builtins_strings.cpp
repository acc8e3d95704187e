// SPDX-License-Identifier: Apache-2.0
// String functions: the standard ones, cel-go's strings extension at version 2 (what Kubernetes
// enables; no reverse()), and the Kubernetes regex library (find, findAll). Indices are code points.
#include <cinttypes>
#include <cmath>
#include <cstdio>

#include <re2/re2.h>

#include "core/cel/builtin_impls.h"
#include "core/cel/builtins.h"
#include "core/cel/go_regex.h"
#include "core/cel/interpreter.h"
#include "core/cel/runtime_cost.h"

namespace drasim::cel::impl {

size_t utf8Offset(std::string_view s, size_t index)
{
    size_t count = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) {
            if (count == index)
                return i;
            ++count;
        }
    }
    return s.size();
}

namespace {

#define BUILTIN_LOCAL(fn) Value fn(EvalContext& ctx, const Value* a, size_t n, const Node& call)

Value indexError(int64_t i)
{
    return Value::error("index out of range: " + std::to_string(i));
}

bool allStrings(const Value* a, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        if (a[i].kind != Kind::String)
            return false;
    }
    return true;
}

/// Decodes one UTF-8 code point at s[i] (advancing i); invalid bytes decode as themselves.
uint32_t decodeAt(std::string_view s, size_t& i)
{
    unsigned char c = static_cast<unsigned char>(s[i]);
    int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
    if (i + size_t(len) > s.size())
        len = 1;
    uint32_t cp = len == 1 ? c : (c & (0x7F >> len));
    for (int k = 1; k < len; ++k)
        cp = (cp << 6) | (static_cast<unsigned char>(s[i + size_t(k)]) & 0x3F);
    i += size_t(len);
    return cp;
}

bool isUnicodeSpace(uint32_t cp)
{
    return cp == ' ' || (cp >= 0x09 && cp <= 0x0D) || cp == 0x85 || cp == 0xA0 || cp == 0x1680
        || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F
        || cp == 0x3000;
}

const RE2* regexFor(
    const Node& call, std::string_view pattern, std::shared_ptr<RE2>& holder, std::string* error)
{
    if (call.extra)
        return static_cast<const RE2*>(call.extra.get());
    holder = compileGoRegex(pattern, error);
    return holder.get();
}

} // namespace

#define BUILTIN(fn) Value fn(EvalContext& ctx, const Value* a, size_t n, const Node& call)
#define UNUSED_ARGS                                                                                          \
    (void)ctx;                                                                                               \
    (void)n;                                                                                                 \
    (void)call

BUILTIN(contains)
{
    UNUSED_ARGS;
    if (!allStrings(a, 2))
        return noSuchOverload("contains");
    return Value::boolean(a[0].str().find(a[1].str()) != std::string_view::npos);
}

BUILTIN(startsWith)
{
    UNUSED_ARGS;
    if (!allStrings(a, 2))
        return noSuchOverload("startsWith");
    return Value::boolean(a[0].str().starts_with(a[1].str()));
}

BUILTIN(endsWith)
{
    UNUSED_ARGS;
    if (!allStrings(a, 2))
        return noSuchOverload("endsWith");
    return Value::boolean(a[0].str().ends_with(a[1].str()));
}

BUILTIN(matches)
{
    UNUSED_ARGS;
    if (!allStrings(a, 2))
        return noSuchOverload("matches");
    std::shared_ptr<RE2> holder;
    std::string error;
    const RE2* re = regexFor(call, a[1].str(), holder, &error);
    if (!re)
        return Value::error(error);
    if (call.costRule == CostRule::Matches)
        ctx.charge(matchesCost(call, a[0], a[1]));
    return Value::boolean(RE2::PartialMatch(re2::StringPiece(a[0].str().data(), a[0].n), *re));
}

BUILTIN(charAt)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::String || a[1].kind != Kind::Int)
        return noSuchOverload("charAt");
    int64_t i = a[1].i;
    int64_t len = int64_t(utf8Length(a[0].str()));
    if (i < 0 || i > len)
        return indexError(i);
    if (i == len)
        return Value::stringView("");
    std::string_view s = a[0].str();
    size_t from = utf8Offset(s, size_t(i));
    size_t to = utf8Offset(s, size_t(i) + 1);
    return Value::string(std::string(s.substr(from, to - from)));
}

BUILTIN(indexOf)
{
    UNUSED_ARGS;
    if (a[0].kind == Kind::List) {
        if (n != 2)
            return noSuchOverload("indexOf");
        const auto& items = a[0].listData();
        for (size_t i = 0; i < items.size(); ++i) {
            Value eq = equals(items[i], a[1]);
            if (eq.kind == Kind::Bool && eq.b)
                return Value::integer(int64_t(i));
        }
        return Value::integer(-1);
    }
    if (!allStrings(a, 2) || (n == 3 && a[2].kind != Kind::Int))
        return noSuchOverload("indexOf");
    std::string_view s = a[0].str();
    std::string_view sub = a[1].str();
    int64_t start = n == 3 ? a[2].i : 0;
    // cel-go returns the start for an empty search string without checking it, and otherwise
    // wants a start inside the string: "".indexOf("a") and "ab".indexOf("b", 2) are errors.
    if (sub.empty())
        return Value::integer(start);
    int64_t len = int64_t(utf8Length(s));
    if (start < 0 || start >= len)
        return indexError(start);
    size_t pos = s.find(sub, utf8Offset(s, size_t(start)));
    if (pos == std::string_view::npos)
        return Value::integer(-1);
    return Value::integer(int64_t(utf8Length(s.substr(0, pos))));
}

BUILTIN(lastIndexOf)
{
    UNUSED_ARGS;
    if (a[0].kind == Kind::List) {
        if (n != 2)
            return noSuchOverload("lastIndexOf");
        const auto& items = a[0].listData();
        for (size_t i = items.size(); i-- > 0;) {
            Value eq = equals(items[i], a[1]);
            if (eq.kind == Kind::Bool && eq.b)
                return Value::integer(int64_t(i));
        }
        return Value::integer(-1);
    }
    if (!allStrings(a, 2) || (n == 3 && a[2].kind != Kind::Int))
        return noSuchOverload("lastIndexOf");
    std::string_view s = a[0].str();
    std::string_view sub = a[1].str();
    int64_t len = int64_t(utf8Length(s));
    // cel-go: without a position an empty search string gives the length and any other search
    // starts at the last code point ("".lastIndexOf("a") is an error, index -1); with a position
    // an empty search string gives it back unchecked, any other needs it inside the string.
    if (n == 2 && sub.empty())
        return Value::integer(len);
    int64_t last = n == 3 ? a[2].i : len - 1;
    if (sub.empty())
        return Value::integer(last);
    if (last < 0 || last >= len)
        return indexError(last);
    size_t limit = utf8Offset(s, size_t(last));
    size_t pos = s.rfind(sub, limit);
    if (pos == std::string_view::npos)
        return Value::integer(-1);
    return Value::integer(int64_t(utf8Length(s.substr(0, pos))));
}

BUILTIN(lowerAscii)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::String)
        return noSuchOverload("lowerAscii");
    std::string s(a[0].str());
    for (char& c : s) {
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    }
    return Value::string(std::move(s));
}

BUILTIN(upperAscii)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::String)
        return noSuchOverload("upperAscii");
    std::string s(a[0].str());
    for (char& c : s) {
        if (c >= 'a' && c <= 'z')
            c = char(c - 'a' + 'A');
    }
    return Value::string(std::move(s));
}

BUILTIN(replace)
{
    UNUSED_ARGS;
    if (!allStrings(a, 3) || (n == 4 && a[3].kind != Kind::Int))
        return noSuchOverload("replace");
    std::string_view s = a[0].str();
    std::string_view from = a[1].str();
    std::string_view to = a[2].str();
    int64_t limit = n == 4 ? a[3].i : -1;
    std::string out;
    int64_t done = 0;
    if (from.empty()) {
        // Go strings.Replace with an empty old string inserts before every code point and at the end.
        size_t i = 0;
        while (i <= s.size()) {
            if (limit < 0 || done < limit) {
                out += to;
                ++done;
            }
            if (i == s.size())
                break;
            size_t start = i;
            decodeAt(s, i);
            out += s.substr(start, i - start);
        }
        return Value::string(std::move(out));
    }
    size_t pos = 0;
    while (limit < 0 || done < limit) {
        size_t hit = s.find(from, pos);
        if (hit == std::string_view::npos)
            break;
        out += s.substr(pos, hit - pos);
        out += to;
        pos = hit + from.size();
        ++done;
    }
    out += s.substr(pos);
    return Value::string(std::move(out));
}

BUILTIN(split)
{
    UNUSED_ARGS;
    if (!allStrings(a, 2) || (n == 3 && a[2].kind != Kind::Int))
        return noSuchOverload("split");
    std::string_view s = a[0].str();
    std::string_view sep = a[1].str();
    int64_t limit = n == 3 ? a[2].i : -1;
    ListData parts;
    if (limit == 0)
        return Value::list(std::move(parts));
    if (sep.empty()) {
        size_t i = 0;
        while (i < s.size()) {
            if (limit > 0 && int64_t(parts.size()) == limit - 1) {
                parts.push_back(Value::string(std::string(s.substr(i))));
                return Value::list(std::move(parts));
            }
            size_t start = i;
            decodeAt(s, i);
            parts.push_back(Value::string(std::string(s.substr(start, i - start))));
        }
        return Value::list(std::move(parts));
    }
    size_t pos = 0;
    while (limit < 0 || int64_t(parts.size()) < limit - 1) {
        size_t hit = s.find(sep, pos);
        if (hit == std::string_view::npos)
            break;
        parts.push_back(Value::string(std::string(s.substr(pos, hit - pos))));
        pos = hit + sep.size();
    }
    parts.push_back(Value::string(std::string(s.substr(pos))));
    return Value::list(std::move(parts));
}

BUILTIN(substring)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::String || a[1].kind != Kind::Int || (n == 3 && a[2].kind != Kind::Int))
        return noSuchOverload("substring");
    std::string_view s = a[0].str();
    int64_t len = int64_t(utf8Length(s));
    int64_t start = a[1].i;
    int64_t end = n == 3 ? a[2].i : len;
    // cel-go checks the order of a two-sided range before its bounds.
    if (n == 3 && end < start)
        return Value::error(
            "invalid substring range. start: " + std::to_string(start) + ", end: " + std::to_string(end));
    if (start < 0 || start > len)
        return indexError(start);
    if (end < 0 || end > len)
        return indexError(end);
    size_t from = utf8Offset(s, size_t(start));
    size_t to = utf8Offset(s, size_t(end));
    return Value::string(std::string(s.substr(from, to - from)));
}

BUILTIN(trim)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::String)
        return noSuchOverload("trim");
    std::string_view s = a[0].str();
    size_t begin = 0;
    while (begin < s.size()) {
        size_t i = begin;
        if (!isUnicodeSpace(decodeAt(s, i)))
            break;
        begin = i;
    }
    size_t end = begin;
    size_t i = begin;
    while (i < s.size()) {
        bool space = isUnicodeSpace(decodeAt(s, i));
        if (!space)
            end = i;
    }
    return Value::string(std::string(s.substr(begin, end - begin)));
}

BUILTIN(join)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::List || (n == 2 && a[1].kind != Kind::String))
        return noSuchOverload("join");
    std::string out;
    bool first = true;
    for (const auto& e : a[0].listData()) {
        if (e.kind != Kind::String)
            return noSuchOverload("join");
        if (!first && n == 2)
            out += a[1].str();
        first = false;
        out += e.str();
    }
    return Value::string(std::move(out));
}

BUILTIN(quote)
{
    UNUSED_ARGS;
    if (a[0].kind != Kind::String)
        return noSuchOverload("strings.quote");
    std::string out = "\"";
    for (char c : a[0].str()) {
        switch (c) {
        case '\a':
            out += "\\a";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\v':
            out += "\\v";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '"':
            out += "\\\"";
            break;
        default:
            out += c;
        }
    }
    out += '"';
    return Value::string(std::move(out));
}

BUILTIN(find)
{
    UNUSED_ARGS;
    if (!allStrings(a, 2))
        return noSuchOverload("find");
    std::shared_ptr<RE2> holder;
    std::string error;
    const RE2* re = regexFor(call, a[1].str(), holder, &error);
    if (!re)
        return Value::error("Illegal regex: " + error);
    re2::StringPiece input(a[0].str().data(), a[0].n);
    re2::StringPiece match;
    if (!re->Match(input, 0, input.size(), RE2::UNANCHORED, &match, 1))
        return Value::stringView("");
    return Value::string(std::string(match.data(), match.size()));
}

BUILTIN(findAll)
{
    UNUSED_ARGS;
    if (!allStrings(a, 2) || (n == 3 && a[2].kind != Kind::Int))
        return noSuchOverload("findAll");
    std::shared_ptr<RE2> holder;
    std::string error;
    const RE2* re = regexFor(call, a[1].str(), holder, &error);
    if (!re)
        return Value::error("Illegal regex: " + error);
    int64_t limit = n == 3 ? a[2].i : -1;
    ListData out;
    std::string_view text = a[0].str();
    re2::StringPiece input(text.data(), text.size());
    // Go's FindAllString: after an empty match the search moves on by one code point, and an
    // empty match right where the previous match ended is not reported ("abc" / "b*" gives
    // "", "b", "").
    size_t pos = 0;
    size_t previousEnd = std::string_view::npos;
    while ((limit < 0 || int64_t(out.size()) < limit) && pos <= input.size()) {
        re2::StringPiece match;
        if (!re->Match(input, pos, input.size(), RE2::UNANCHORED, &match, 1))
            break;
        size_t begin = size_t(match.data() - input.data());
        size_t end = begin + match.size();
        bool accept = true;
        if (match.empty()) {
            accept = begin != previousEnd;
            if (pos < text.size()) {
                size_t next = pos;
                decodeAt(text, next);
                pos = next;
            } else {
                pos = text.size() + 1;
            }
        } else {
            pos = end;
        }
        previousEnd = end;
        if (accept)
            out.push_back(Value::string(std::string(match.data(), match.size())));
    }
    return Value::list(std::move(out));
}

#undef BUILTIN
#undef BUILTIN_LOCAL
#undef UNUSED_ARGS

} // namespace drasim::cel::impl
