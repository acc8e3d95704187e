// SPDX-License-Identifier: Apache-2.0
#include "core/cel/printer.h"

#include <cmath>
#include <cstdio>

namespace drasim::cel {

namespace {

std::string quoted(std::string_view s, bool bytes)
{
    std::string out = bytes ? "b\"" : "\"";
    for (char ch : s) {
        unsigned char c = static_cast<unsigned char>(ch);
        if (c == '\\' || c == '"') {
            out += '\\';
            out += ch;
        } else if (c < 0x20 || c == 0x7f || (bytes && c >= 0x80)) {
            // In strings \xHH is a code point below 0x80 here; in bytes it is one octet.
            char buf[5];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        } else {
            out += ch; // UTF-8 text stays as it is
        }
    }
    return out + "\"";
}

std::string literal(const Value& v)
{
    switch (v.kind) {
    case Kind::Null:
        return "null";
    case Kind::Bool:
        return v.b ? "true" : "false";
    case Kind::Int:
        return std::to_string(v.i);
    case Kind::Uint:
        return std::to_string(v.u) + "u";
    case Kind::Double: {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.17g", v.d);
        std::string s = buf;
        if (s.find_first_of(".e") == std::string::npos)
            s += ".0"; // a double literal needs a point or an exponent
        return s;
    }
    case Kind::String:
        return quoted(v.str(), false);
    case Kind::Bytes:
        return quoted(v.str(), true);
    default:
        return "null"; // the parser produces no other literals
    }
}

const char* binaryOperator(const std::string& fn)
{
    static const std::pair<const char*, const char*> kOps[] = { { "_+_", "+" }, { "_-_", "-" },
        { "_*_", "*" }, { "_/_", "/" }, { "_%_", "%" }, { "_==_", "==" }, { "_!=_", "!=" }, { "_<_", "<" },
        { "_<=_", "<=" }, { "_>_", ">" }, { "_>=_", ">=" }, { "@in", "in" } };
    for (const auto& [name, op] : kOps) {
        if (fn == name)
            return op;
    }
    return nullptr;
}

const char* macroName(Macro m)
{
    switch (m) {
    case Macro::All:
        return "all";
    case Macro::Exists:
        return "exists";
    case Macro::ExistsOne:
        return "exists_one";
    case Macro::Map:
    case Macro::MapFilter:
        return "map";
    case Macro::Filter:
        return "filter";
    case Macro::TransformList:
        return "transformList";
    case Macro::TransformMap:
        return "transformMap";
    case Macro::TransformMapEntry:
        return "transformMapEntry";
    case Macro::SortBy:
        return "sortBy";
    case Macro::OptMap:
        return "optMap";
    case Macro::OptFlatMap:
        return "optFlatMap";
    case Macro::None:
        break;
    }
    return "?";
}

/// Appends the source of a node (appending rather than concatenating temporaries keeps the
/// printer linear in the output).
class Printer
{
public:
    std::string out;

    void node(const Node& n)
    {
        switch (n.kind) {
        case NodeKind::Literal:
            out += literal(n.literal);
            return;
        case NodeKind::Ident:
            out += n.name;
            return;
        case NodeKind::Select:
        case NodeKind::OptSelect:
            operand(*n.args[0]);
            out += n.kind == NodeKind::Select ? "." : ".?";
            out += n.name;
            return;
        case NodeKind::Index:
        case NodeKind::OptIndex:
            operand(*n.args[0]);
            out += n.kind == NodeKind::Index ? "[" : "[?";
            node(*n.args[1]);
            out += ']';
            return;
        case NodeKind::Call:
            return call(n);
        case NodeKind::List:
            out += '[';
            for (size_t i = 0; i < n.args.size(); ++i) {
                out += i ? ", " : "";
                out += n.optionalEntries[i] ? "?" : "";
                node(*n.args[i]);
            }
            out += ']';
            return;
        case NodeKind::Map:
            out += '{';
            for (size_t i = 0; i < n.args.size(); i += 2) {
                out += i ? ", " : "";
                out += n.optionalEntries[i / 2] ? "?" : "";
                node(*n.args[i]);
                out += ": ";
                node(*n.args[i + 1]);
            }
            out += '}';
            return;
        case NodeKind::Ternary:
            out += '(';
            node(*n.args[0]);
            out += " ? ";
            node(*n.args[1]);
            out += " : ";
            node(*n.args[2]);
            out += ')';
            return;
        case NodeKind::And:
        case NodeKind::Or:
            out += '(';
            node(*n.args[0]);
            out += n.kind == NodeKind::And ? " && " : " || ";
            node(*n.args[1]);
            out += ')';
            return;
        case NodeKind::Has:
            out += "has(";
            operand(*n.args[0]);
            out += '.';
            out += n.name;
            out += ')';
            return;
        case NodeKind::Comprehension:
            operand(*n.args[0]);
            out += '.';
            out += macroName(n.macro);
            out += '(';
            out += n.name;
            if (!n.name2.empty()) {
                out += ", ";
                out += n.name2;
            }
            arguments(n, 1, true);
            out += ')';
            return;
        case NodeKind::Bind:
            out += "cel.bind(";
            out += n.name;
            out += ", ";
            node(*n.args[0]);
            out += ", ";
            node(*n.args[1]);
            out += ')';
            return;
        default:
            out += "null"; // checker-produced kinds never reach the printer
        }
    }

private:
    /// A receiver or operand, parenthesised so that it binds as written.
    void operand(const Node& n)
    {
        out += '(';
        node(n);
        out += ')';
    }

    void arguments(const Node& n, size_t from, bool leadingComma)
    {
        for (size_t i = from; i < n.args.size(); ++i) {
            if (i > from || leadingComma)
                out += ", ";
            node(*n.args[i]);
        }
    }

    void call(const Node& n)
    {
        if (const char* op = binaryOperator(n.name); op && n.args.size() == 2) {
            out += '(';
            node(*n.args[0]);
            out += ' ';
            out += op;
            out += ' ';
            node(*n.args[1]);
            out += ')';
            return;
        }
        if ((n.name == "-_" || n.name == "!_") && n.args.size() == 1) {
            out += n.name[0];
            operand(*n.args[0]);
            return;
        }
        if (n.hasReceiver) {
            operand(*n.args[0]);
            out += '.';
        }
        out += n.name;
        out += '(';
        arguments(n, n.hasReceiver ? 1 : 0, false);
        out += ')';
    }
};

} // namespace

std::string printExpression(const Node& parsed)
{
    Printer p;
    p.node(parsed);
    return std::move(p.out);
}

} // namespace drasim::cel
