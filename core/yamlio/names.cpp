// SPDX-License-Identifier: Apache-2.0
#include "core/yamlio/names.h"

namespace drasim::yamlio {

namespace {

bool lowerAlnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}
bool alnum(char c)
{
    return lowerAlnum(c) || (c >= 'A' && c <= 'Z');
}

std::string tooLong(size_t max)
{
    return "must be no more than " + std::to_string(max) + " characters";
}

bool isDnsLabel(std::string_view s)
{
    if (s.empty() || !lowerAlnum(s.front()) || !lowerAlnum(s.back()))
        return false;
    for (char c : s)
        if (!lowerAlnum(c) && c != '-')
            return false;
    return true;
}

bool isDnsSubdomain(std::string_view s)
{
    if (s.empty())
        return false;
    size_t start = 0;
    while (true) {
        size_t dot = s.find('.', start);
        std::string_view part
            = s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
        if (!isDnsLabel(part))
            return false;
        if (dot == std::string_view::npos)
            return true;
        start = dot + 1;
    }
}

constexpr const char* kLabelMsg
    = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start "
      "and "
      "end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
      "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
// IsDNS1035Label (apimachinery validation): a Service's name, which must start with a letter.
constexpr const char* kDns1035LabelMsg
    = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
      "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for "
      "validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
constexpr const char* kSubdomainMsg
    = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
      "must "
      "start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
      "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
constexpr const char* kCIdentifierMsg
    = "a valid C identifier must start with alphabetic character or '_', followed by a string of "
      "alphanumeric "
      "characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is "
      "'[A-Za-z_][A-Za-z0-9_]*')";
constexpr const char* kQualifiedNameMsg
    = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
      "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
      "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
constexpr const char* kLabelValueMsg
    = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and "
      "must "
      "start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used "
      "for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

bool isLabelNamePart(std::string_view s)
{
    if (s.empty() || !alnum(s.front()) || !alnum(s.back()))
        return false;
    for (char c : s)
        if (!alnum(c) && c != '-' && c != '_' && c != '.')
            return false;
    return true;
}

} // namespace

std::string checkDnsLabel(std::string_view s)
{
    if (s.size() > 63)
        return tooLong(63);
    return isDnsLabel(s) ? std::string() : kLabelMsg;
}

std::string checkDns1035Label(std::string_view s)
{
    if (s.size() > 63)
        return tooLong(63);
    return isDnsLabel(s) && s.front() >= 'a' && s.front() <= 'z' ? std::string() : kDns1035LabelMsg;
}

std::string checkDnsSubdomain(std::string_view s, size_t maxLength)
{
    if (s.size() > maxLength)
        return tooLong(maxLength);
    return isDnsSubdomain(s) ? std::string() : kSubdomainMsg;
}

std::string checkCIdentifier(std::string_view s, size_t maxLength)
{
    if (s.size() > maxLength)
        return tooLong(maxLength);
    bool ok = !s.empty() && !(s[0] >= '0' && s[0] <= '9');
    for (char c : s)
        ok = ok && (alnum(c) || c == '_');
    return ok ? std::string() : kCIdentifierMsg;
}

std::string checkLabelKey(std::string_view s)
{
    std::string_view name = s;
    const size_t slash = s.find('/');
    if (slash != std::string_view::npos) {
        std::string_view prefix = s.substr(0, slash);
        name = s.substr(slash + 1);
        if (prefix.empty())
            return "prefix part must be non-empty";
        std::string p = checkDnsSubdomain(prefix);
        if (!p.empty())
            return "prefix part " + p;
        if (name.find('/') != std::string_view::npos)
            return "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must "
                   "start "
                   "and end with an alphanumeric character with an optional DNS subdomain prefix and '/'";
    }
    if (name.empty())
        return "name part must be non-empty";
    if (name.size() > 63)
        return "name part must be no more than 63 characters";
    return isLabelNamePart(name) ? std::string() : kQualifiedNameMsg;
}

std::string checkLabelValue(std::string_view s)
{
    if (s.size() > 63)
        return tooLong(63);
    return s.empty() || isLabelNamePart(s) ? std::string() : kLabelValueMsg;
}

std::string NameIssue::text() const
{
    if (tooLongMax)
        return "Too long: must have at most " + std::to_string(tooLongMax) + " bytes";
    return "Invalid value: \"" + value + "\": " + message;
}

std::vector<NameIssue> driverNameIssues(std::string_view s)
{
    std::vector<NameIssue> out;
    if (s.size() > 63)
        out.push_back({ std::string(s), {}, 63 });
    std::string lower(s);
    for (char& c : lower)
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    if (auto e = checkDnsSubdomain(lower); !e.empty())
        out.push_back({ std::string(s), e, 0 });
    return out;
}

namespace {

void cIdentifierIssues(std::string_view id, std::vector<NameIssue>& out)
{
    if (id.size() > 32)
        out.push_back({ std::string(id), {}, 32 });
    if (auto e = checkCIdentifier(id, std::string_view::npos); !e.empty())
        out.push_back({ std::string(id), e, 0 });
}

} // namespace

std::vector<NameIssue> qualifiedNameIssues(std::string_view s, bool fullyQualified)
{
    std::vector<NameIssue> out;
    const size_t slash = s.find('/');
    if (slash == std::string_view::npos) {
        cIdentifierIssues(s, out);
        if (fullyQualified)
            out.push_back({ std::string(s),
                "a fully qualified name must be a domain and a name separated by a slash", 0 });
        return out;
    }
    if (s.find('/', slash + 1) != std::string_view::npos) {
        out.push_back({ std::string(s), "must not contain more than one slash", 0 });
        return out;
    }
    const std::string_view domain = s.substr(0, slash), name = s.substr(slash + 1);
    if (domain.empty())
        out.push_back({ "", "the domain must not be empty", 0 });
    else
        for (auto& issue : driverNameIssues(domain))
            out.push_back(std::move(issue));
    if (name.empty())
        out.push_back({ "", "the name must not be empty", 0 });
    else
        cIdentifierIssues(name, out);
    return out;
}

std::vector<NameIssue> poolNameIssues(std::string_view s)
{
    std::vector<NameIssue> out;
    if (s.size() > 253)
        out.push_back({ std::string(s), {}, 253 });
    size_t start = 0;
    while (true) {
        const size_t slash = s.find('/', start);
        const std::string_view part
            = s.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
        if (auto e = checkDnsSubdomain(part); !e.empty())
            out.push_back({ std::string(part), e, 0 });
        if (slash == std::string_view::npos)
            return out;
        start = slash + 1;
    }
}

} // namespace drasim::yamlio
