// SPDX-License-Identifier: Apache-2.0
#include "core/cel/cost.h"

#include <cmath>
#include <limits>
#include <map>

namespace drasim::cel {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kMaxDomains = 32;
constexpr double kMaxIdentifiers = 32;
constexpr double kMaxAttributeString = 64;
constexpr double kMaxDriver = 63;
constexpr double kMaxListAttribute = 64;

struct Estimate
{
    double cost = 0;
    double size = 0; ///< string length / list or map entries (upper bound)
};

double traversal(double size)
{
    return std::isinf(size) ? kInf : std::ceil(size * 0.1);
}

class Estimator
{
public:
    Estimate run(const Node& n)
    {
        switch (n.kind) {
        case NodeKind::Literal:
            return { 0, literalSize(n.literal) };
        case NodeKind::Local: {
            auto it = m_localSizes.find(n.slot);
            return { 1, it == m_localSizes.end() ? kInf : it->second };
        }
        case NodeKind::DeviceVar:
            return { 1, 0 };
        case NodeKind::DeviceAttr:
            return { 4, kMaxAttributeString };
        case NodeKind::DeviceDriver:
            return { 2, kMaxDriver };
        case NodeKind::Select:
        case NodeKind::OptSelect:
        case NodeKind::Has: {
            Estimate operand = run(*n.args[0]);
            return { operand.cost + 1, selectSize(*n.args[0], n.name, operand) };
        }
        case NodeKind::Index:
        case NodeKind::OptIndex: {
            Estimate operand = run(*n.args[0]);
            Estimate index = run(*n.args[1]);
            double size
                = n.args[0]->kind == NodeKind::Select && n.args[0]->args[0]->kind == NodeKind::DeviceVar
                ? kMaxIdentifiers
                : elementSize(n.type);
            return { operand.cost + index.cost + 1, size };
        }
        case NodeKind::List: {
            Estimate e { 10, double(n.args.size()) };
            for (const auto& a : n.args)
                e.cost += run(*a).cost;
            return e;
        }
        case NodeKind::Map: {
            Estimate e { 30, double(n.args.size() / 2) };
            for (const auto& a : n.args)
                e.cost += run(*a).cost;
            return e;
        }
        case NodeKind::Ternary: {
            Estimate c = run(*n.args[0]);
            Estimate a = run(*n.args[1]);
            Estimate b = run(*n.args[2]);
            return { c.cost + std::max(a.cost, b.cost), std::max(a.size, b.size) };
        }
        case NodeKind::And:
        case NodeKind::Or:
            return { run(*n.args[0]).cost + run(*n.args[1]).cost, 0 };
        case NodeKind::Bind: {
            Estimate init = run(*n.args[0]);
            m_localSizes[n.slot] = init.size;
            Estimate body = run(*n.args[1]);
            return { init.cost + body.cost, body.size };
        }
        case NodeKind::Comprehension:
            return comprehension(n);
        case NodeKind::Call:
            return call(n);
        case NodeKind::Ident:
            return { 1, kInf };
        }
        return { 1, kInf };
    }

private:
    std::map<int, double> m_localSizes;

    static double literalSize(const Value& v)
    {
        switch (v.kind) {
        case Kind::String:
            return double(v.n);
        case Kind::Bytes:
            return double(v.n);
        case Kind::List:
            return double(v.listData().size());
        case Kind::Map:
            return double(v.mapData().entries.size());
        default:
            return 0;
        }
    }

    static double elementSize(const CelType& t)
    {
        if (t.isDyn() || t.k == CelType::K::String || t.k == CelType::K::List)
            return kMaxAttributeString; // attribute values are the only bounded dynamic source
        return 0;
    }

    static double selectSize(const Node& operand, const std::string& field, const Estimate& e)
    {
        if (operand.kind == NodeKind::DeviceVar) {
            if (field == "driver")
                return kMaxDriver;
            if (field == "attributes" || field == "capacity")
                return kMaxDomains;
            return 0;
        }
        (void)e;
        if (operand.type.k == CelType::K::Map && operand.type.params[1].k == CelType::K::Map)
            return kMaxIdentifiers;
        return kMaxListAttribute;
    }

    Estimate comprehension(const Node& n)
    {
        Estimate range = run(*n.args[0]);
        double count = range.size;
        // Element sizes of iteration variables: map keys are identifiers/domains, list elements
        // of attribute-derived data are bounded strings.
        m_localSizes[n.slot] = kMaxAttributeString;
        if (n.slot2 >= 0)
            m_localSizes[n.slot2] = kMaxAttributeString;
        double perIteration = 1;
        for (size_t i = 1; i < n.args.size(); ++i)
            perIteration += run(*n.args[i]).cost;
        if (std::isinf(count))
            return { kInf, kInf };
        return { range.cost + count * perIteration, count };
    }

    Estimate call(const Node& n)
    {
        std::vector<Estimate> args;
        double cost = 1;
        for (const auto& a : n.args) {
            args.push_back(run(*a));
            cost += args.back().cost;
        }
        const std::string& f = n.name;
        auto argSize = [&](size_t i) { return i < args.size() ? args[i].size : 0; };
        bool stringArgs = !n.args.empty() && n.args[0]->type.k == CelType::K::String;
        if (f == "_==_" || f == "_!=_" || f == "_<_" || f == "_<=_" || f == "_>_" || f == "_>=_") {
            if (stringArgs || n.args[0]->type.k == CelType::K::Bytes)
                cost += traversal(std::min(argSize(0), argSize(1)));
            else if (n.args[0]->type.k == CelType::K::List || n.args[0]->type.k == CelType::K::Map)
                cost += std::min(argSize(0), argSize(1));
            return { cost, 0 };
        }
        if (f == "_+_") {
            if (stringArgs || n.args[0]->type.k == CelType::K::Bytes)
                cost += traversal(argSize(0) + argSize(1));
            return { cost, argSize(0) + argSize(1) };
        }
        if (f == "@in")
            return { cost + (n.args[1]->type.k == CelType::K::List ? argSize(1) : 0), 0 };
        if (f == "contains" || f == "startsWith" || f == "endsWith" || f == "lowerAscii" || f == "upperAscii"
            || f == "trim" || f == "charAt" || f == "indexOf" || f == "lastIndexOf" || f == "substring"
            || f == "size") {
            if (f != "size")
                cost += traversal(argSize(0));
            return { cost, argSize(0) };
        }
        if (f == "matches" || f == "find" || f == "findAll") {
            size_t subject = 0;
            double pattern = argSize(1);
            if (std::isinf(argSize(subject)) || std::isinf(pattern))
                return { kInf, kInf };
            cost += std::ceil(argSize(subject) / 10) * std::ceil(std::max(1.0, pattern / 4));
            return { cost, argSize(0) };
        }
        if (f == "split" || f == "replace" || f == "join" || f == "format" || f == "strings.quote") {
            cost += traversal(argSize(0)) + traversal(argSize(1));
            return { cost,
                std::isinf(argSize(0)) ? kInf : argSize(0) * 2 + (args.size() > 2 ? argSize(2) : 0) };
        }
        if (f == "sort" || f == "distinct" || f == "sets.contains" || f == "sets.equivalent"
            || f == "sets.intersects" || f == "isSorted" || f == "sum" || f == "min" || f == "max"
            || f == "flatten" || f == "reverse" || f == "slice") {
            double size = argSize(0);
            cost += (f == "sort" || f == "distinct" || f.starts_with("sets."))
                ? size * std::max(1.0, argSize(1) + size)
                : size;
            return { cost, size };
        }
        if (f == "lists.range")
            return { n.args[0]->kind == NodeKind::Literal ? cost + double(n.args[0]->literal.i) : kInf,
                n.args[0]->kind == NodeKind::Literal ? double(n.args[0]->literal.i) : kInf };
        if (f == "string" || f == "bytes")
            return { cost, kInf }; // conversions produce values of unknown length
        if (f == "dyn" || f == "orValue" || f == "value" || f == "optional.of")
            return { cost, argSize(0) };
        return { cost, elementSize(n.type) };
    }
};

} // namespace

double estimateCost(const Node& root)
{
    return Estimator().run(root).cost;
}

} // namespace drasim::cel
