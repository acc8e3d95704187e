// SPDX-License-Identifier: Apache-2.0
#include "core/cel/checker.h"

#include <map>

#include <re2/re2.h>

#include "core/cel/builtins.h"
#include "core/cel/format_check.h"
#include "core/cel/go_regex.h"
#include "core/cel/interpreter.h"

namespace drasim::cel {

namespace {

using K = CelType::K;

struct CheckFailure
{
    std::string message;
    size_t offset;
};

[[noreturn]] void fail(const Node& at, std::string message)
{
    throw CheckFailure { std::move(message), at.offset };
}

CelType literalType(const Value& v)
{
    switch (v.kind) {
    case Kind::Null:
        return K::Null;
    case Kind::Bool:
        return K::Bool;
    case Kind::Int:
        return K::Int;
    case Kind::Uint:
        return K::Uint;
    case Kind::Double:
        return K::Double;
    case Kind::String:
        return K::String;
    case Kind::Bytes:
        return K::Bytes;
    default:
        return K::Dyn;
    }
}

/// The element type of an empty list or map literal. cel-go gives it a free type variable that
/// unifies with whatever the literal meets, so `[[], [1]]` and `[{}, {"a": 1}]` are homogeneous;
/// everywhere else it behaves as dyn.
CelType freeType()
{
    CelType t = CelType::dyn();
    t.param = '?';
    return t;
}

bool isFreeType(const CelType& t)
{
    return t.k == K::Dyn && t.param == '?';
}

/// The homogeneity check's type equality, where a free type (from an empty literal) takes the
/// other side's type: on success *out is the joined, more specific type.
bool joinLiteralTypes(const CelType& a, const CelType& b, CelType* out)
{
    if (isFreeType(a) || isFreeType(b)) {
        *out = isFreeType(a) ? b : a;
        return true;
    }
    if (a.k != b.k || a.param != b.param || a.params.size() != b.params.size() || a.k == K::Type)
        return a == b;
    CelType joined = a;
    for (size_t i = 0; i < a.params.size(); ++i) {
        if (!joinLiteralTypes(a.params[i], b.params[i], &joined.params[i]))
            return false;
    }
    *out = std::move(joined);
    return true;
}

/// Matches an overload parameter (possibly generic) against an argument type.
bool unify(const CelType& param, const CelType& arg, std::map<char, CelType>& bound)
{
    if (param.k == K::Param) {
        auto it = bound.find(param.param);
        if (it == bound.end()) {
            bound[param.param] = arg;
            return true;
        }
        if (isAssignable(it->second, arg) && isAssignable(arg, it->second)) {
            if (arg.isDyn())
                it->second = arg; // widen: the join of T and dyn is dyn
            return true;
        }
        return false;
    }
    if (param.isDyn())
        return true;
    if (arg.isDyn()) {
        // A dyn argument matches any parameter; generic parts of it become dyn.
        for (const auto& p : param.params)
            unify(p, CelType::dyn(), bound);
        return true;
    }
    if (param.k != arg.k)
        return false;
    if (param.k == K::Type)
        return true;
    if (param.params.size() != arg.params.size())
        return false;
    for (size_t i = 0; i < param.params.size(); ++i) {
        if (!unify(param.params[i], arg.params[i], bound))
            return false;
    }
    return true;
}

CelType substitute(const CelType& t, const std::map<char, CelType>& bound)
{
    if (t.k == K::Param) {
        auto it = bound.find(t.param);
        return it == bound.end() ? CelType::dyn() : it->second;
    }
    CelType r = t;
    for (auto& p : r.params)
        p = substitute(p, bound);
    return r;
}

std::string joinTypes(const std::vector<CelType>& types, size_t from)
{
    std::string out;
    for (size_t i = from; i < types.size(); ++i) {
        if (i > from)
            out += ", ";
        out += types[i].toString();
    }
    return out;
}

/// Type-denotation identifiers usable as values (`type(x) == int`).
bool typeDenotation(const std::string& name, CelType* out)
{
    static const std::map<std::string, CelType> kTypes = {
        { "int", K::Int },
        { "uint", K::Uint },
        { "double", K::Double },
        { "bool", K::Bool },
        { "string", K::String },
        { "bytes", K::Bytes },
        { "list", CelType::list(CelType::dyn()) },
        { "map", CelType::map(CelType::dyn(), CelType::dyn()) },
        { "null_type", K::Null },
        { "type", CelType::type(CelType::dyn()) },
        { "dyn", K::Dyn },
    };
    auto it = kTypes.find(name);
    if (it == kTypes.end())
        return false;
    *out = it->second;
    return true;
}

/// Runtime name of a type denotation (what type(x) returns for a value of that type).
std::string_view runtimeTypeName(const std::string& ident)
{
    static const std::map<std::string, std::string_view> kNames
        = { { "int", "int" }, { "uint", "uint" }, { "double", "double" }, { "bool", "bool" },
              { "string", "string" }, { "bytes", "bytes" }, { "list", "list" }, { "map", "map" },
              { "null_type", "null_type" }, { "type", "type" }, { "dyn", "dyn" } };
    return kNames.at(ident);
}

/// A derived attribute's value: a scalar of an attribute type, or dyn (checked at run time).
bool derivedScalarType(const CelType& t)
{
    return t.isDyn() || t.k == K::Bool || t.k == K::Int || t.k == K::String || t.k == K::Semver;
}

/// Empty when the result type fits the rule, else the API server's words for it.
std::string resultTypeProblem(const CelType& t, ResultRule rule)
{
    if (rule == ResultRule::Selector) {
        // The DRA environment accepts bool, or the attribute value type (dyn) converted to bool
        // at run time (cel.md §10).
        if (t.k != K::Bool && !t.isDyn())
            return "must evaluate to bool or the unknown type, not " + t.toString();
        return {};
    }
    if (derivedScalarType(t))
        return {};
    if (rule == ResultRule::DerivedScalarOrList) {
        if (t.k == K::List && derivedScalarType(t.params[0]))
            return {};
        return "must evaluate to a primitive scalar (string, integer, boolean, semver) or a list of these "
               "scalars, not "
            + t.toString();
    }
    return "must evaluate to a primitive scalar (string, integer, boolean, semver), not " + t.toString();
}

class Checker
{
public:
    Checker(bool fold, ResultRule rule)
        : m_fold(fold)
        , m_rule(rule)
    { }

    bool run(NodePtr& root, CheckResult* result, CheckError* error)
    {
        try {
            check(root);
            if (auto problem = resultTypeProblem(root->type, m_rule); !problem.empty())
                fail(*root, problem);
        } catch (const CheckFailure& f) {
            if (error) {
                error->message = f.message;
                error->offset = f.offset;
            }
            return false;
        }
        if (result)
            result->slotCount = m_maxSlot;
        return true;
    }

private:
    struct Local
    {
        std::string name;
        int slot;
        CelType type;
    };
    std::vector<Local> m_locals;
    int m_nextSlot = 0;
    int m_maxSlot = 0;
    int m_formatDepth = 0;
    bool m_fold = true;
    ResultRule m_rule = ResultRule::Selector;

    const Local* findLocal(const std::string& name) const
    {
        for (size_t i = m_locals.size(); i-- > 0;) {
            if (m_locals[i].name == name)
                return &m_locals[i];
        }
        return nullptr;
    }

    int pushLocal(const std::string& name, CelType type)
    {
        int slot = m_nextSlot++;
        m_maxSlot = std::max(m_maxSlot, m_nextSlot);
        m_locals.push_back({ name, slot, std::move(type) });
        return slot;
    }
    void popLocal()
    {
        m_locals.pop_back();
        --m_nextSlot;
    }

    void check(NodePtr& n)
    {
        switch (n->kind) {
        case NodeKind::Literal:
            n->type = literalType(n->literal);
            return;
        case NodeKind::Ident:
            return checkIdent(n);
        case NodeKind::Select:
        case NodeKind::OptSelect:
            return checkSelect(n);
        case NodeKind::Index:
        case NodeKind::OptIndex:
            return checkIndex(n);
        case NodeKind::Call:
            return checkCall(n);
        case NodeKind::List:
            return checkList(n);
        case NodeKind::Map:
            return checkMap(n);
        case NodeKind::Ternary: {
            for (auto& a : n->args)
                check(a);
            std::vector<CelType> types = { n->args[0]->type, n->args[1]->type, n->args[2]->type };
            std::map<char, CelType> bound;
            CelType a = CelType::typeParam('A');
            if (!unify(K::Bool, types[0], bound) || !unify(a, types[1], bound) || !unify(a, types[2], bound))
                fail(*n, "found no matching overload for '_?_:_' applied to '(" + joinTypes(types, 0) + ")'");
            n->type = substitute(a, bound);
            return;
        }
        case NodeKind::And:
        case NodeKind::Or: {
            for (auto& a : n->args)
                check(a);
            for (auto& a : n->args) {
                if (a->type.k != K::Bool && !a->type.isDyn()) {
                    std::vector<CelType> types = { n->args[0]->type, n->args[1]->type };
                    fail(*n,
                        std::string("found no matching overload for '")
                            + (n->kind == NodeKind::And ? "_&&_" : "_||_") + "' applied to '("
                            + joinTypes(types, 0) + ")'");
                }
            }
            n->type = K::Bool;
            return;
        }
        case NodeKind::Has: {
            check(n->args[0]);
            const CelType& t = n->args[0]->type;
            if (t.k == K::Device) {
                deviceFieldType(*n, n->name);
            } else if (t.k != K::Map && !t.isDyn()) {
                fail(*n, "type '" + t.toString() + "' does not support field selection");
            }
            n->type = K::Bool;
            return;
        }
        case NodeKind::Comprehension:
            return checkComprehension(n);
        case NodeKind::Bind: {
            check(n->args[0]);
            n->slot = pushLocal(n->name, n->args[0]->type);
            check(n->args[1]);
            popLocal();
            n->type = n->args[1]->type;
            return;
        }
        default:
            return; // already checked (produced by the checker)
        }
    }

    void checkIdent(NodePtr& n)
    {
        if (const Local* l = findLocal(n->name)) {
            n->kind = NodeKind::Local;
            n->slot = l->slot;
            n->type = l->type;
            return;
        }
        if (n->name == "device") {
            n->kind = NodeKind::DeviceVar;
            n->type = K::Device;
            return;
        }
        CelType denoted;
        if (typeDenotation(n->name, &denoted)) {
            // The value is known now, but cel-go's estimator still sees an identifier (cost 1,
            // size unknown): keep it as the literal's original.
            auto ident = std::make_unique<Node>();
            ident->kind = NodeKind::Ident;
            ident->offset = n->offset;
            ident->name = n->name;
            ident->type = CelType::type(denoted);
            n->literal = Value::typeValue(runtimeTypeName(n->name));
            n->kind = NodeKind::Literal;
            n->type = ident->type;
            n->args.push_back(std::move(ident));
            return;
        }
        fail(*n, "undeclared reference to '" + n->name + "' (in container '')");
    }

    CelType deviceFieldType(const Node& at, const std::string& field)
    {
        if (field == "driver")
            return K::String;
        if (field == "attributes")
            return CelType::map(K::String, CelType::map(K::String, CelType::dyn()));
        if (field == "capacity")
            return CelType::map(K::String, CelType::map(K::String, K::Quantity));
        if (field == "allowMultipleAllocations")
            return K::Bool;
        fail(at, "undefined field '" + field + "'");
    }

    void checkSelect(NodePtr& n)
    {
        check(n->args[0]);
        CelType operand = n->args[0]->type;
        bool optional = n->kind == NodeKind::OptSelect;
        if (operand.k == K::Optional) {
            optional = true;
            operand = CelType(operand.params[0]); // copy first: assigning from our own element
        }
        CelType result;
        if (operand.k == K::Device) {
            result = deviceFieldType(*n, n->name);
        } else if (operand.k == K::Map) {
            if (!isAssignable(operand.params[0], K::String))
                fail(*n, "type '" + operand.toString() + "' does not support field selection");
            result = operand.params[1];
        } else if (operand.isDyn()) {
            result = CelType::dyn();
        } else {
            fail(*n, "type '" + operand.toString() + "' does not support field selection");
        }
        n->type = optional ? CelType::optional(result) : result;
        if (!optional && operand.k == K::Device && n->name == "driver") {
            n->kind = NodeKind::DeviceDriver;
            n->args.clear();
            return;
        }
        if (!optional)
            tryDeviceAttr(n);
    }

    void checkIndex(NodePtr& n)
    {
        check(n->args[0]);
        check(n->args[1]);
        CelType operand = n->args[0]->type;
        const CelType& index = n->args[1]->type;
        bool optional = n->kind == NodeKind::OptIndex;
        if (operand.k == K::Optional) {
            optional = true;
            operand = CelType(operand.params[0]); // copy first: assigning from our own element
        }
        CelType result;
        bool ok = false;
        if (operand.k == K::List) {
            // cel-go declares list indexing for int only; a uint or double index works only as dyn.
            ok = index.k == K::Int || index.isDyn();
            result = operand.params[0];
        } else if (operand.k == K::Map) {
            ok = isAssignable(operand.params[0], index);
            result = operand.params[1];
        } else if (operand.isDyn()) {
            ok = true;
            result = CelType::dyn();
        }
        if (!ok) {
            std::vector<CelType> types = { operand, index };
            const char* fn = n->kind == NodeKind::OptIndex ? "_[?_]" : "_[_]";
            fail(*n,
                std::string("found no matching overload for '") + fn + "' applied to '(" + joinTypes(types, 0)
                    + ")'");
        }
        n->type = optional ? CelType::optional(result) : result;
        if (!optional)
            tryDeviceAttr(n);
    }

    /// device.attributes["dom"].name / ["name"] becomes one node that looks the entry up
    /// directly in the device (the selector hot path).
    void tryDeviceAttr(NodePtr& n)
    {
        Node* inner = n->args[0].get();
        std::string name;
        if (n->kind == NodeKind::Select) {
            name = n->name;
        } else if (n->kind == NodeKind::Index && n->args[1]->kind == NodeKind::Literal
            && n->args[1]->literal.kind == Kind::String) {
            name = std::string(n->args[1]->literal.str());
        } else {
            return;
        }
        if (inner->kind != NodeKind::Index || inner->args[1]->kind != NodeKind::Literal
            || inner->args[1]->literal.kind != Kind::String)
            return;
        Node* maps = inner->args[0].get();
        if (maps->kind != NodeKind::Select || maps->args[0]->kind != NodeKind::DeviceVar)
            return;
        if (maps->name != "attributes" && maps->name != "capacity")
            return;
        auto d = std::make_unique<Node>();
        d->kind = NodeKind::DeviceAttr;
        d->offset = n->offset;
        d->slot = maps->name == "capacity" ? 1 : 0;
        d->name = std::string(inner->args[1]->literal.str());
        d->name2 = std::move(name);
        d->type = n->type;
        n = std::move(d);
    }

    void checkList(NodePtr& n)
    {
        CelType elem;
        bool first = true;
        bool allLiteral = true;
        for (size_t i = 0; i < n->args.size(); ++i) {
            check(n->args[i]);
            CelType t = n->args[i]->type;
            if (n->optionalEntries[i]) {
                if (t.k != K::Optional && !t.isDyn())
                    fail(*n->args[i], "expected type 'optional_type' but found '" + t.toString() + "'");
                if (t.k == K::Optional)
                    t = CelType(t.params[0]); // copy first: assigning from our own element
                allLiteral = false;
                if (t.isDyn() && !first)
                    continue; // optional.none() carries no element type of its own
            }
            if (n->args[i]->kind != NodeKind::Literal)
                allLiteral = false;
            if (first) {
                elem = t;
                first = false;
            } else if (!joinLiteralTypes(elem, t, &elem)) {
                if (m_formatDepth == 0)
                    fail(*n->args[i],
                        "expected type '" + elem.toString() + "' but found '" + t.toString() + "'");
                elem = CelType::dyn();
            }
        }
        n->type = CelType::list(first ? freeType() : elem);
        // cel-go's planner builds a list whose elements are all constants once (a constant for
        // the conversions around it, see foldConstant).
        if (allLiteral && m_fold) {
            ListData items;
            for (auto& a : n->args)
                items.push_back(a->literal);
            replaceByConstant(n, Value::list(std::move(items)));
        }
    }

    void checkMap(NodePtr& n)
    {
        CelType key, value;
        bool first = true;
        for (size_t i = 0; i < n->args.size(); i += 2) {
            check(n->args[i]);
            check(n->args[i + 1]);
            CelType kt = n->args[i]->type;
            CelType vt = n->args[i + 1]->type;
            if (n->optionalEntries[i / 2]) {
                if (vt.k != K::Optional && !vt.isDyn())
                    fail(*n->args[i + 1], "expected type 'optional_type' but found '" + vt.toString() + "'");
                if (vt.k == K::Optional)
                    vt = CelType(vt.params[0]); // copy first: assigning from our own element
                if (vt.isDyn() && !first)
                    vt = value; // optional.none() carries no value type of its own
            }
            if (kt.k != K::Int && kt.k != K::Uint && kt.k != K::Bool && kt.k != K::String && !kt.isDyn())
                fail(*n->args[i], "unsupported map key type: " + kt.toString());
            if (first) {
                key = kt;
                value = vt;
                first = false;
                continue;
            }
            if (!joinLiteralTypes(key, kt, &key) && m_formatDepth == 0)
                fail(*n->args[i], "expected type '" + key.toString() + "' but found '" + kt.toString() + "'");
            if (!joinLiteralTypes(value, vt, &value) && m_formatDepth == 0)
                fail(*n->args[i + 1],
                    "expected type '" + value.toString() + "' but found '" + vt.toString() + "'");
        }
        n->type = first ? CelType::map(freeType(), freeType()) : CelType::map(key, value);
        foldMapLiteral(n);
    }

    /// cel-go's planner also turns a map literal of constant keys and values into a constant
    /// (so that dyn({...}) is a constant for the conversions around it). Decision: a map that
    /// fails to build (a repeated key) stays a map literal and fails when evaluated.
    void foldMapLiteral(NodePtr& n)
    {
        if (!m_fold)
            return;
        for (size_t i = 0; i < n->args.size(); ++i) {
            if (n->args[i]->kind != NodeKind::Literal || n->optionalEntries[i / 2])
                return;
        }
        EvalContext ctx;
        Value v = evaluateNode(ctx, *n);
        if (!v.isError())
            replaceByConstant(n, std::move(v));
    }

    /// Replaces a node by its constant value. The original subtree stays attached as the
    /// literal's only argument: the interpreter never looks at it, the cost estimator does
    /// (Kubernetes estimates the checked expression before the planner folds it).
    static void replaceByConstant(NodePtr& n, Value v)
    {
        auto lit = std::make_unique<Node>();
        lit->kind = NodeKind::Literal;
        lit->offset = n->offset;
        lit->literal = std::move(v);
        lit->type = n->type;
        lit->args.push_back(std::move(n));
        n = std::move(lit);
    }

    void checkComprehension(NodePtr& n)
    {
        check(n->args[0]);
        const CelType& range = n->args[0]->type;
        bool twoVars = !n->name2.empty();
        CelType v1, v2;
        if (n->macro == Macro::OptMap || n->macro == Macro::OptFlatMap) {
            if (range.k != K::Optional && !range.isDyn())
                fail(*n,
                    "found no matching overload for '"
                        + std::string(n->macro == Macro::OptMap ? "optMap" : "optFlatMap") + "' applied to '"
                        + range.toString() + "'");
            n->slot = pushLocal(n->name, range.k == K::Optional ? range.params[0] : CelType::dyn());
            check(n->args[1]);
            popLocal();
            const CelType& body = n->args[1]->type;
            if (n->macro == Macro::OptMap) {
                n->type = CelType::optional(body);
            } else {
                if (body.k != K::Optional && !body.isDyn())
                    fail(*n->args[1], "expected type 'optional_type' but found '" + body.toString() + "'");
                n->type = body.k == K::Optional ? body : CelType::optional(CelType::dyn());
            }
            return;
        }
        if (n->macro == Macro::SortBy && range.k == K::Map)
            fail(
                *n->args[0], "found no matching overload for 'sortBy' applied to '" + range.toString() + "'");
        if (range.k == K::List) {
            v1 = twoVars ? CelType(K::Int) : range.params[0];
            v2 = range.params[0];
        } else if (range.k == K::Map) {
            v1 = range.params[0];
            v2 = range.params[1];
        } else if (range.isDyn()) {
            v1 = v2 = CelType::dyn();
        } else {
            fail(*n->args[0],
                "expression of type '" + range.toString()
                    + "' cannot be range of a comprehension (must be list, map, or dynamic)");
        }
        if ((n->macro == Macro::TransformMap || n->macro == Macro::TransformMapEntry) && range.k == K::List)
            fail(*n, "transformMap() and transformMapEntry() require a map range");
        if (twoVars && n->name == n->name2)
            fail(*n, "duplicate variable name: " + n->name);
        n->slot = pushLocal(n->name, v1);
        if (twoVars)
            n->slot2 = pushLocal(n->name2, v2);
        for (size_t i = 1; i < n->args.size(); ++i)
            check(n->args[i]);
        if (twoVars)
            popLocal();
        popLocal();

        // A predicate that is not a bool fails in the step cel-go expands the macro into, and is
        // reported as that call's missing overload: all `__result__ && p`, exists `__result__ || p`,
        // exists_one `p ? __result__ + 1 : __result__`, filters `p ? __result__ + [x] : __result__`.
        auto requireBool = [&](const Node& p, const std::string& step, const CelType& accumulator) {
            if (p.type.k == K::Bool || p.type.isDyn())
                return;
            std::string applied = step == "_?_:_"
                ? p.type.toString() + ", " + accumulator.toString() + ", " + accumulator.toString()
                : accumulator.toString() + ", " + p.type.toString();
            fail(p, "found no matching overload for '" + step + "' applied to '(" + applied + ")'");
        };
        const Node& last = *n->args.back();
        const CelType boolean = K::Bool;
        switch (n->macro) {
        case Macro::All:
            requireBool(last, "_&&_", boolean);
            n->type = K::Bool;
            break;
        case Macro::Exists:
            requireBool(last, "_||_", boolean);
            n->type = K::Bool;
            break;
        case Macro::ExistsOne:
            requireBool(last, "_?_:_", CelType(K::Int));
            n->type = K::Bool;
            break;
        case Macro::Filter:
            requireBool(last, "_?_:_", CelType::list(v1));
            n->type = CelType::list(v1);
            break;
        case Macro::SortBy:
            n->type = CelType::list(v1);
            break;
        case Macro::OptMap:
        case Macro::OptFlatMap:
            break;
        case Macro::Map:
        case Macro::TransformList:
            if (n->filtered)
                requireBool(*n->args[1], "_?_:_", CelType::list(last.type));
            n->type = CelType::list(last.type);
            break;
        case Macro::MapFilter:
            requireBool(*n->args[1], "_?_:_", CelType::list(last.type));
            n->type = CelType::list(last.type);
            break;
        case Macro::TransformMap:
            if (n->filtered)
                requireBool(*n->args[1], "_?_:_", CelType::map(v1, last.type));
            n->type = CelType::map(v1, last.type);
            break;
        case Macro::TransformMapEntry:
            if (n->filtered)
                requireBool(*n->args[1], "_?_:_",
                    last.type.k == K::Map ? last.type : CelType::map(CelType::dyn(), CelType::dyn()));
            if (last.type.k != K::Map && !last.type.isDyn())
                fail(last, "expected type 'map' but found '" + last.type.toString() + "'");
            n->type = last.type.k == K::Map ? last.type : CelType::map(CelType::dyn(), CelType::dyn());
            break;
        case Macro::None:
            break;
        }
    }

    /// `optional.of(x)`, `sets.contains(a, b)`: a receiver that is a bare namespace identifier
    /// naming a declared qualified function turns the call into a global one.
    void resolveQualified(NodePtr& n)
    {
        if (!n->hasReceiver || n->args[0]->kind != NodeKind::Ident || findLocal(n->args[0]->name))
            return;
        std::string qualified = n->args[0]->name + "." + n->name;
        if (!findFunction(qualified))
            return;
        n->name = qualified;
        n->hasReceiver = false;
        n->args.erase(n->args.begin());
    }

    void checkCall(NodePtr& n)
    {
        resolveQualified(n);
        bool isFormat = n->hasReceiver && n->name == "format";
        if (isFormat)
            ++m_formatDepth;
        for (auto& a : n->args)
            check(a);
        if (isFormat)
            --m_formatDepth;

        const FunctionDecl* decl = findFunction(n->name);
        std::vector<CelType> types;
        for (auto& a : n->args)
            types.push_back(a->type);
        if (!decl) {
            if (n->hasReceiver)
                fail(*n, "undeclared reference to '" + n->name + "' (in container '')");
            fail(*n, "undeclared reference to '" + n->name + "' (in container '')");
        }
        std::vector<CelType> results;
        for (const auto& o : decl->overloads) {
            if (o.receiver != n->hasReceiver || o.params.size() != types.size())
                continue;
            std::map<char, CelType> bound;
            bool ok = true;
            for (size_t i = 0; i < types.size() && ok; ++i)
                ok = unify(o.params[i], types[i], bound);
            if (ok)
                results.push_back(substitute(o.result, bound));
        }
        if (results.empty()) {
            std::string applied = n->hasReceiver ? types[0].toString() + ".(" + joinTypes(types, 1) + ")"
                                                 : "(" + joinTypes(types, 0) + ")";
            fail(*n, "found no matching overload for '" + n->name + "' applied to '" + applied + "'");
        }
        CelType result = results[0];
        for (const auto& r : results) {
            if (!(r == result)) {
                result = CelType::dyn();
                break;
            }
        }
        n->type = result;
        n->fn = decl->impl;
        validateAndFold(n);
    }

    void validateAndFold(NodePtr& n)
    {
        if (n->name == "matches")
            return precompileRegex(n);
        if (n->name == "find" || n->name == "findAll") {
            // Kubernetes compiles a literal pattern when it plans the program: an invalid one
            // fails program creation, so the selector is rejected like an invalid `matches`.
            if (n->args.size() >= 2 && n->args[1]->kind == NodeKind::Literal
                && n->args[1]->literal.kind == Kind::String) {
                std::string err;
                n->extra = compileRegex(n->args[1]->literal.str(), &err);
                if (!n->extra)
                    fail(*n->args[1], err);
            }
            return;
        }
        if (n->name == "format") {
            // Kubernetes' format validator checks the clauses of a literal format against the
            // static types of a list literal's elements, and their count.
            std::string error = checkFormatCall(*n);
            if (!error.empty())
                fail(*n, error);
            return;
        }
        bool literalArg = !n->hasReceiver && n->args.size() == 1 && n->args[0]->kind == NodeKind::Literal;
        if (!literalArg || !m_fold)
            return;
        bool conversion = isConversionFunction(n->name);
        bool parsesConstant
            = n->name == "quantity" || n->name == "semver" || n->name == "ip" || n->name == "cidr";
        if (!conversion && !parsesConstant)
            return;
        // Children are checked (and folded) before their parent, so folding is bottom-up like
        // cel-go's planner: int(dyn("x")) sees the constant "x" and fails here, and
        // uint(uint(dyn("e"))) fails at its innermost conversion.
        const Value& arg = n->args[0]->literal;
        EvalContext ctx;
        Value v = arg.isError() ? arg : n->fn(ctx, &arg, 1, *n);
        if (v.isError()) {
            // cel-go plans conversions of constants eagerly: a failure rejects the expression.
            // quantity()/semver() are folded only when they succeed (decision: cel.md lists
            // only conversions as planning-time failures), otherwise they fail at run time.
            if (conversion)
                fail(*n, v.errorMessage());
            return;
        }
        replaceByConstant(n, std::move(v));
    }

    static std::shared_ptr<const void> compileRegex(std::string_view pattern, std::string* error)
    {
        return compileGoRegex(pattern, error);
    }

    void precompileRegex(NodePtr& n)
    {
        if (n->args.size() != 2)
            return;
        auto isLit
            = [](const Node& a) { return a.kind == NodeKind::Literal && a.literal.kind == Kind::String; };
        // Kubernetes' regex validator inspects the first non-receiver argument: the pattern for
        // s.matches(p), but the subject for matches(s, p) (cel.md §6 quirk).
        const Node& validated = n->hasReceiver ? *n->args[1] : *n->args[0];
        std::string err;
        // The validator sees the expression as written (a folded dyn("...") is not a literal
        // there); the planner then precompiles any constant pattern, folded ones included.
        std::shared_ptr<const void> validatedRe;
        if (isLit(validated) && validated.args.empty()) {
            validatedRe = compileRegex(validated.literal.str(), &err);
            if (!validatedRe)
                fail(validated, "invalid matches argument");
        }
        if (isLit(*n->args[1])) {
            auto re = validatedRe && &validated == n->args[1].get()
                ? validatedRe
                : compileRegex(n->args[1]->literal.str(), &err);
            if (!re)
                fail(*n->args[1], err);
            n->extra = std::move(re);
        }
    }
};

} // namespace

bool checkExpression(NodePtr& root, CheckResult* result, CheckError* error, bool fold, ResultRule rule)
{
    return Checker(fold, rule).run(root, result, error);
}

} // namespace drasim::cel
