// SPDX-License-Identifier: Apache-2.0
#include "core/cel/go_regex.h"

#include <re2/re2.h>

namespace drasim::cel {
namespace {

/// Go's regexp/syntax wording of each parse error RE2 reports.
const char* goErrorText(RE2::ErrorCode code)
{
    switch (code) {
    case RE2::ErrorBadEscape:
        return "invalid escape sequence";
    case RE2::ErrorBadCharClass:
        return "invalid character class";
    case RE2::ErrorBadCharRange:
        return "invalid character class range";
    case RE2::ErrorMissingBracket:
        return "missing closing ]";
    case RE2::ErrorMissingParen:
        return "missing closing )";
    case RE2::ErrorUnexpectedParen:
        return "unexpected )";
    case RE2::ErrorTrailingBackslash:
        return "trailing backslash at end of expression";
    case RE2::ErrorRepeatArgument:
        return "missing argument to repetition operator";
    case RE2::ErrorRepeatSize:
        return "invalid repeat count";
    case RE2::ErrorRepeatOp:
        return "invalid nested repetition operator";
    case RE2::ErrorBadPerlOp:
        return "invalid or unsupported Perl syntax";
    case RE2::ErrorBadUTF8:
        return "invalid UTF-8";
    case RE2::ErrorBadNamedCapture:
        return "invalid named capture";
    case RE2::ErrorPatternTooLarge:
        return "expression too large";
    default:
        return "regexp/syntax: internal error";
    }
}

std::string goError(const char* text, std::string_view expr)
{
    return std::string("error parsing regexp: ") + text + ": `" + std::string(expr) + "`";
}

/// Rewrites Go-only syntax into RE2's. Returns false (with *error set) for escapes RE2 accepts but
/// Go rejects. Escaped text (`\Q...\E`, `\x`) and character classes are copied as they are.
bool translate(std::string_view in, std::string& out, bool& renamed, std::string* error)
{
    out.reserve(in.size() + 4);
    bool inClass = false;
    for (size_t i = 0; i < in.size(); ++i) {
        char c = in[i];
        if (c == '\\' && i + 1 < in.size()) {
            char next = in[i + 1];
            if (next == 'C') {
                if (error)
                    *error = goError("invalid escape sequence", "\\C");
                return false;
            }
            if (next == 'Q' && !inClass) {
                size_t end = in.find("\\E", i + 2);
                size_t stop = end == std::string_view::npos ? in.size() : end + 2;
                out.append(in.substr(i, stop - i));
                i = stop - 1;
                continue;
            }
            out += c;
            out += next;
            ++i;
            continue;
        }
        if (inClass) {
            if (c == '[' && in.substr(i, 2) == "[:") {
                size_t end = in.find(":]", i + 2);
                if (end != std::string_view::npos) {
                    out.append(in.substr(i, end + 2 - i));
                    i = end + 1;
                    continue;
                }
            }
            inClass = c != ']';
            out += c;
            continue;
        }
        if (c == '[') {
            // A `]` right after `[` or `[^` is a member, not the end of the class.
            size_t first = i + 1 < in.size() && in[i + 1] == '^' ? i + 2 : i + 1;
            size_t stop = first < in.size() && in[first] == ']' ? first + 1 : first;
            out.append(in.substr(i, stop - i));
            i = stop - 1;
            inClass = true;
            continue;
        }
        // Go (since 1.22) reads `(?<name>` like `(?P<name>`; lookbehinds stay invalid in both.
        if (c == '(' && in.substr(i, 3) == "(?<" && i + 3 < in.size() && in[i + 3] != '='
            && in[i + 3] != '!') {
            out += "(?P<";
            i += 2;
            renamed = true;
            continue;
        }
        out += c;
    }
    return true;
}

} // namespace

std::shared_ptr<RE2> compileGoRegex(std::string_view pattern, std::string* error)
{
    std::string translated;
    bool renamed = false;
    if (!translate(pattern, translated, renamed, error))
        return nullptr;
    RE2::Options opts;
    opts.set_log_errors(false);
    // Go has no memory budget for a compiled pattern; RE2's default (8 MiB) refuses patterns
    // such as `\pL{1000}` that Go accepts. The budget is an upper bound, not an allocation.
    opts.set_max_mem(int64_t(64) << 20);
    auto re = std::make_shared<RE2>(re2::StringPiece(translated.data(), translated.size()), opts);
    if (re->ok())
        return re;
    if (error) {
        std::string arg = re->error_arg();
        if (renamed) {
            for (size_t at = arg.find("(?P<"); at != std::string::npos; at = arg.find("(?P<", at + 3))
                arg.erase(at + 2, 1);
        }
        *error = goError(goErrorText(re->error_code()), arg);
    }
    return nullptr;
}

} // namespace drasim::cel
