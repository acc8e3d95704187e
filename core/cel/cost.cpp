// SPDX-License-Identifier: Apache-2.0
// Worst-case cost estimate, rule by rule after cel-go's checker-based estimator (checker/cost.go)
// plus the function estimators Kubernetes and cel-go's extensions register (the Kubernetes
// library estimator, the sets and lists extensions), with the DRA size hints of the `device`
// variable. The estimator also annotates each node with its static actual cost and the rule its
// dynamic cost follows, so evaluation charges what the estimate assumed, on actual sizes.
//
// Arithmetic is on uint64 and saturates, like cel-go: an unknown size is [0, 2^64-1], and any
// cost proportional to it lands far above the limit.
#include "core/cel/cost.h"

#include <cmath>
#include <limits>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "core/cel/builtins.h"

namespace drasim::cel {

namespace {

using K = CelType::K;
constexpr uint64_t kMaxU = std::numeric_limits<uint64_t>::max();

// cel-go's cost constants (common/cost.go).
constexpr uint64_t kSelectAndIdentCost = 1;
constexpr uint64_t kListCreateBaseCost = 10;
constexpr uint64_t kMapCreateBaseCost = 30;
constexpr double kStringTraversalCostFactor = 0.1;
constexpr double kRegexStringLengthCostFactor = 0.25;

// Kubernetes' DRA size hints (the MaxElements of the declared device type).
constexpr uint64_t kMaxAttributesPerDevice = 32; // both map levels
constexpr uint64_t kMaxDomainLength = 63;
constexpr uint64_t kMaxIdLength = 32;
constexpr uint64_t kMaxAttributeValueLength = 64;
constexpr uint64_t kMaxDriverLength = 63;

uint64_t addSat(uint64_t a, uint64_t b)
{
    return b > 0 && a > kMaxU - b ? kMaxU : a + b;
}
uint64_t mulSat(uint64_t a, uint64_t b)
{
    return b != 0 && a > kMaxU / b ? kMaxU : a * b;
}
/// cel-go's multiplyByCostFactor: ceil(x * f), saturating.
uint64_t byFactor(uint64_t x, double f)
{
    double xf = double(x);
    if (xf > 0 && f > 0 && xf > double(kMaxU) / f)
        return kMaxU;
    double c = std::ceil(xf * f);
    if (c >= 18446744073709551616.0)
        return kMaxU;
    return uint64_t(c);
}

/// Reading a string or bytes of `size` once: 0.1 per byte, rounded up.
uint64_t traversal(uint64_t size)
{
    return byFactor(size, kStringTraversalCostFactor);
}

struct Size
{
    uint64_t min = 0;
    uint64_t max = kMaxU;
    static Size fixed(uint64_t v) { return { v, v }; }
    Size plus(const Size& o) const { return { addSat(min, o.min), addSat(max, o.max) }; }
    Size times(const Size& o) const { return { mulSat(min, o.min), mulSat(max, o.max) }; }
    Size unite(const Size& o) const { return { std::min(min, o.min), std::max(max, o.max) }; }
};
const Size kUnknown {};

/// Where a value sits in the declared `device` type: what the Kubernetes size estimator answers
/// for a field path (`device.attributes["d"]` reaches the inner map, its values the attribute
/// type). A path it cannot follow (a field selected on the outer map, list items) is `None`.
enum class Place : uint8_t {
    None,
    Device,
    Driver,
    OuterAttrs,
    OuterCaps,
    InnerAttrs,
    InnerCaps,
    AttrValue,
    DomainKey,
    IdKey
};

std::optional<Size> placeSize(Place p)
{
    switch (p) {
    case Place::Driver:
        return Size { 0, kMaxDriverLength };
    case Place::OuterAttrs:
    case Place::OuterCaps:
    case Place::InnerAttrs:
    case Place::InnerCaps:
        return Size { 0, kMaxAttributesPerDevice };
    case Place::AttrValue:
        return Size { 0, kMaxAttributeValueLength };
    case Place::DomainKey:
        return Size { 0, kMaxDomainLength };
    case Place::IdKey:
        return Size { 0, kMaxIdLength };
    case Place::None:
    case Place::Device:
        break;
    }
    return std::nullopt;
}

/// Sizes of the keys (or indices) and values of a list or map built in the expression.
struct Entry
{
    bool isList = false;
    Size key;
    Size val;
};

std::optional<Entry> uniteEntries(const std::optional<Entry>& a, const std::optional<Entry>& b)
{
    if (!a || !b)
        return std::nullopt;
    return Entry { a->isList, a->key.unite(b->key), a->val.unite(b->val) };
}

struct Est
{
    uint64_t cost = 0;
    std::optional<Size> size; ///< computed size; nullopt = fall back to place, then type
    std::optional<Entry> entry;
    Place place = Place::None;
    const Node* node = nullptr; ///< the node as cel-go sees it (for literal arguments)
};

/// A type whose values all have size 1 for the estimator (cel-go isScalar).
bool isScalar(const CelType& t)
{
    switch (t.k) {
    case K::Bool:
    case K::Double:
    case K::Duration:
    case K::Int:
    case K::Timestamp:
    case K::Uint:
        return true;
    case K::Optional:
        return isScalar(t.params[0]);
    default:
        return false;
    }
}

uint64_t codePoints(std::string_view s)
{
    return utf8Length(s);
}

bool mayBe(const CelType& t, K k)
{
    return t.k == k || t.isDyn();
}

/// Both operands may be strings, or both bytes: the overloads that traverse them apply.
bool bothTextual(const CelType& a, const CelType& b)
{
    return (mayBe(a, K::String) && mayBe(b, K::String)) || (mayBe(a, K::Bytes) && mayBe(b, K::Bytes));
}

/// Quantities, semantic versions, IPs, CIDRs and URLs: Kubernetes' own CEL types, whose values
/// have no size at run time (cel-go's tracker measures them as 1).
bool isKubernetesValue(const CelType& t)
{
    return t.k == K::Quantity || t.k == K::Semver || t.k == K::IP || t.k == K::CIDR || t.k == K::URL;
}

/// Kubernetes' price of `a == b` where both operands have the same Kubernetes type, which its
/// library estimator gives before cel-go's size rule is consulted
/// (k8s.io/apiserver/pkg/cel/library/cost.go, EstimateCallCost, case "_==_"): quantities,
/// semantic versions, IPs and CIDRs compare in constant time and cost 1; a URL costs 0.1 x the
/// right operand's computed size, or 1 when it has none (upstream reads the right operand's size
/// for both sides, so the order of the operands matters). Only `==` is priced so: `!=`, and
/// operands of different types (dyn included), keep cel-go's rule. Upstream prices `format.*`
/// values too (up to ceil(0.1 x 64)); this engine has no such values.
std::optional<uint64_t> kubernetesEqualityCost(
    const CelType& lhs, const CelType& rhs, const std::optional<Size>& rhsSize)
{
    if (lhs.k != rhs.k || !isKubernetesValue(lhs))
        return std::nullopt;
    if (lhs.k != K::URL)
        return 1;
    return traversal(rhsSize ? rhsSize->max : 1);
}

struct LocalVar
{
    Place place = Place::None;
    std::optional<Size> size;
    std::optional<Entry> entry;
};

class Estimator
{
public:
    Est run(Node& n)
    {
        Est e = visit(n);
        e.node = &n;
        if (!e.size) {
            // cel-go computeSize: computed sizes first, then the Kubernetes size estimator
            // (by field path), then scalars, then the size of a local variable.
            if (auto p = placeSize(e.place))
                e.size = p;
            else if (isScalar(n.type))
                e.size = Size::fixed(1);
        }
        return e;
    }

private:
    std::unordered_map<int, LocalVar> m_locals;

    static Size sizeOf(const Est& e) { return e.size ? *e.size : kUnknown; }

    Est visit(Node& n)
    {
        switch (n.kind) {
        case NodeKind::Literal:
            return literal(n);
        case NodeKind::Ident: // only as the original of a folded type denotation
            return { kSelectAndIdentCost, std::nullopt, std::nullopt, Place::None, nullptr };
        case NodeKind::Local: {
            n.runCost = 1;
            Est e { kSelectAndIdentCost, std::nullopt, std::nullopt, Place::None, nullptr };
            auto it = m_locals.find(n.slot);
            if (it != m_locals.end()) {
                e.place = it->second.place;
                e.entry = it->second.entry;
                if (!placeSize(e.place) && !isScalar(n.type))
                    e.size = it->second.size;
            }
            return e;
        }
        case NodeKind::DeviceVar:
            n.runCost = 1;
            return { kSelectAndIdentCost, std::nullopt, std::nullopt, Place::Device, nullptr };
        case NodeKind::DeviceDriver:
            // device (1) + selecting a field of an object (1).
            n.runCost = 2;
            return { 2, std::nullopt, std::nullopt, Place::Driver, nullptr };
        case NodeKind::DeviceAttr:
            // device (1) .attributes (1) [domain] (1) .name or [name] (1). Capacity values are
            // quantities, which the size estimator does not bound.
            n.runCost = 4;
            return { 4, std::nullopt, std::nullopt, n.slot == 0 ? Place::AttrValue : Place::None, nullptr };
        case NodeKind::Select:
            return select(n);
        case NodeKind::OptSelect: {
            // `x.?f` is the call _?._(x, "f"): 1 plus its operand.
            n.runCost = 1;
            Est operand = run(*n.args[0]);
            return { addSat(operand.cost, 1), std::nullopt, std::nullopt, Place::None, nullptr };
        }
        case NodeKind::Has: {
            // A presence test costs only its operand: Kubernetes' base environment sets
            // PresenceTestHasCost(false) (cel-go's default of 1 came later; kept at 0 there).
            n.runCost = 0;
            Est operand = run(*n.args[0]);
            return { operand.cost, std::nullopt, std::nullopt, Place::None, nullptr };
        }
        case NodeKind::Index:
        case NodeKind::OptIndex:
            return index(n);
        case NodeKind::List:
            return list(n);
        case NodeKind::Map:
            return map(n);
        case NodeKind::Ternary: {
            // Conditional: the condition plus the dearer branch; the result may be either.
            Est c = run(*n.args[0]);
            Est a = run(*n.args[1]);
            Est b = run(*n.args[2]);
            Est e { addSat(c.cost, std::max(a.cost, b.cost)), sizeOf(a).unite(sizeOf(b)),
                uniteEntries(a.entry, b.entry), Place::None, nullptr };
            return e;
        }
        case NodeKind::And:
        case NodeKind::Or:
            // Logical operators cost nothing of their own: both sides in the worst case.
            return { addSat(run(*n.args[0]).cost, run(*n.args[1]).cost), std::nullopt, std::nullopt,
                Place::None, nullptr };
        case NodeKind::Bind: {
            // cel.bind is a comprehension over an empty list (10), its initialiser and body.
            Est init = run(*n.args[0]);
            m_locals[n.slot] = LocalVar { init.place, init.size, init.entry };
            Est body = run(*n.args[1]);
            m_locals.erase(n.slot);
            Est e { addSat(addSat(kListCreateBaseCost, init.cost), body.cost), body.size, body.entry,
                Place::None, nullptr };
            return e;
        }
        case NodeKind::Comprehension:
            return comprehension(n);
        case NodeKind::Call:
            return call(n);
        }
        return { 1, std::nullopt, std::nullopt, Place::None, nullptr };
    }

    Est literal(Node& n)
    {
        n.runCost = 0; // constants (also folded ones) cost nothing when evaluated
        if (!n.args.empty()) {
            // A folded constant: Kubernetes estimates the expression before the planner folds
            // it, so the original subtree is what counts.
            Est e = run(*n.args[0]);
            e.node = n.args[0].get();
            return e;
        }
        Est e;
        const Value& v = n.literal;
        switch (v.kind) {
        case Kind::String:
            e.size = Size::fixed(codePoints(v.str()));
            break;
        case Kind::Bytes:
            e.size = Size::fixed(v.n);
            break;
        case Kind::Bool:
        case Kind::Int:
        case Kind::Uint:
        case Kind::Double:
        case Kind::Null:
        case Kind::Timestamp:
        case Kind::Duration:
            e.size = Size::fixed(1);
            break;
        default:
            break;
        }
        return e;
    }

    Est select(Node& n)
    {
        Est operand = run(*n.args[0]);
        const CelType& t = n.args[0]->type;
        // Selecting a field of a map or object costs 1; of a dyn value, nothing extra.
        bool charged = t.k == K::Map || t.k == K::Device || t.k == K::Optional;
        n.runCost = charged ? 1 : 0;
        Est e { addSat(operand.cost, charged ? kSelectAndIdentCost : 0), std::nullopt, std::nullopt,
            Place::None, nullptr };
        switch (operand.place) {
        case Place::Device:
            e.place = n.name == "driver" ? Place::Driver
                : n.name == "attributes" ? Place::OuterAttrs
                : n.name == "capacity"   ? Place::OuterCaps
                                         : Place::None;
            break;
        case Place::InnerAttrs:
            e.place = Place::AttrValue; // every attribute value has the same bound
            break;
        default:
            break; // a field of the outer map or a capacity map is not a declared path
        }
        return e;
    }

    Est index(Node& n)
    {
        // _[_] and _[?_] are calls: 1 plus their arguments.
        n.runCost = 1;
        Est operand = run(*n.args[0]);
        Est key = run(*n.args[1]);
        Est e { addSat(addSat(operand.cost, key.cost), 1), std::nullopt, std::nullopt, Place::None, nullptr };
        if (n.kind == NodeKind::OptIndex)
            return e;
        if (operand.entry) {
            e.size = operand.entry->val;
        }
        switch (operand.place) {
        case Place::OuterAttrs:
            e.place = Place::InnerAttrs;
            break;
        case Place::OuterCaps:
            e.place = Place::InnerCaps;
            break;
        case Place::InnerAttrs:
            e.place = Place::AttrValue;
            break;
        default:
            break;
        }
        return e;
    }

    Est list(Node& n)
    {
        n.runCost = uint32_t(kListCreateBaseCost);
        Est e { kListCreateBaseCost, Size::fixed(n.args.size()), std::nullopt, Place::None, nullptr };
        Size item { kMaxU, 0 };
        if (n.args.empty())
            item.min = 0;
        for (auto& a : n.args) {
            Est x = run(*a);
            e.cost = addSat(e.cost, x.cost);
            item = item.unite(sizeOf(x));
        }
        e.entry = Entry { true, Size::fixed(1), item };
        return e;
    }

    Est map(Node& n)
    {
        n.runCost = uint32_t(kMapCreateBaseCost);
        Est e { kMapCreateBaseCost, Size::fixed(n.args.size() / 2), std::nullopt, Place::None, nullptr };
        Size key { kMaxU, 0 }, val { kMaxU, 0 };
        if (n.args.empty())
            key.min = val.min = 0;
        for (size_t i = 0; i < n.args.size(); ++i) {
            Est x = run(*n.args[i]);
            e.cost = addSat(e.cost, x.cost);
            (i % 2 == 0 ? key : val) = (i % 2 == 0 ? key : val).unite(sizeOf(x));
        }
        e.entry = Entry { false, key, val };
        return e;
    }

    /// Places of a comprehension's variables over a range at `p` (key or index, value).
    static Place keyPlace(Place p)
    {
        if (p == Place::OuterAttrs || p == Place::OuterCaps)
            return Place::DomainKey;
        if (p == Place::InnerAttrs || p == Place::InnerCaps)
            return Place::IdKey;
        return Place::None;
    }
    static Place valuePlace(Place p)
    {
        if (p == Place::OuterAttrs)
            return Place::InnerAttrs;
        if (p == Place::OuterCaps)
            return Place::InnerCaps;
        if (p == Place::InnerAttrs)
            return Place::AttrValue;
        return Place::None;
    }

    Est comprehension(Node& n)
    {
        Est range = run(*n.args[0]);
        const CelType& rt = n.args[0]->type;

        if (n.macro == Macro::OptMap || n.macro == Macro::OptFlatMap) {
            // opt.hasValue() ? [optional.of](bind(x, opt.value(), e)) : optional.none():
            // the target is evaluated twice, the bind adds 10, value() 1, hasValue() 1.
            m_locals[n.slot] = LocalVar {};
            Est body = run(*n.args[1]);
            m_locals.erase(n.slot);
            n.runCost = 2;
            uint64_t branch = addSat(addSat(kListCreateBaseCost + 1, range.cost), body.cost);
            if (n.macro == Macro::OptMap)
                branch = addSat(branch, 1);
            return { addSat(addSat(range.cost, 1), branch), std::nullopt, std::nullopt, Place::None,
                nullptr };
        }

        bool rangeIsList = range.entry ? range.entry->isList : rt.k == K::List;
        bool twoVars = n.slot2 >= 0;
        if (twoVars) {
            // First variable: key or index; second: value.
            LocalVar k { rangeIsList ? Place::None : keyPlace(range.place), std::nullopt, std::nullopt };
            if (range.entry)
                k.size = range.entry->key;
            LocalVar v { valuePlace(range.place), std::nullopt, std::nullopt };
            if (range.entry)
                v.size = range.entry->val;
            if (rangeIsList && range.place != Place::None)
                v.place = Place::None; // list items of an attribute have no declared bound
            m_locals[n.slot] = k;
            m_locals[n.slot2] = v;
        } else {
            LocalVar x { rangeIsList ? Place::None : keyPlace(range.place), std::nullopt, std::nullopt };
            if (range.entry)
                x.size = rangeIsList ? range.entry->val : range.entry->key;
            m_locals[n.slot] = x;
        }
        std::vector<Est> parts;
        for (size_t i = 1; i < n.args.size(); ++i)
            parts.push_back(run(*n.args[i]));
        m_locals.erase(n.slot);
        if (twoVars)
            m_locals.erase(n.slot2);

        uint64_t count = sizeOf(range).max;
        const Est& last = parts.back();
        bool filtered = n.macro == Macro::MapFilter || n.filtered;
        uint64_t filterCost = filtered ? parts[0].cost : 0;
        auto guarded = [&](uint64_t stepCost) {
            // `f ? step : accu`: the filter plus the dearer branch (the accumulator costs 1).
            return filtered ? addSat(filterCost, std::max<uint64_t>(stepCost, 1)) : stepCost;
        };

        uint64_t once = 0; // accumulator initialiser plus result
        uint64_t perIteration = 0; // loop condition plus step, without the body
        uint64_t iteration = 0; // everything per element
        Est e;
        switch (n.macro) {
        case Macro::All:
            // init true (0); @not_strictly_false(accu) (2); accu && p (1 + p); result accu (1).
            once = 1;
            perIteration = 3;
            iteration = addSat(3, last.cost);
            e.size = Size::fixed(1);
            break;
        case Macro::Exists:
            // init false (0); @not_strictly_false(!accu) (3); accu || p (1 + p); result (1).
            once = 1;
            perIteration = 4;
            iteration = addSat(4, last.cost);
            e.size = Size::fixed(1);
            break;
        case Macro::ExistsOne:
            // init 0; condition true (0); p ? accu + 1 : accu (p + 2); result accu == 1 (2).
            once = 2;
            perIteration = 2;
            iteration = addSat(2, last.cost);
            e.size = Size::fixed(1);
            break;
        case Macro::Map:
        case Macro::MapFilter:
        case Macro::TransformList:
            // init [] (10); condition true; accu + [t] (1 + 1 + 10 + t); result accu (1).
            once = kListCreateBaseCost + 1;
            perIteration = 12;
            iteration = guarded(addSat(12, last.cost));
            e.size = Size { count, count };
            e.entry = Entry { true, Size::fixed(1), Size { 0, sizeOf(last).max } };
            break;
        case Macro::Filter:
            // init []; p ? accu + [x] : accu (p + 13); result accu (1).
            once = kListCreateBaseCost + 1;
            perIteration = 13;
            iteration = addSat(13, last.cost);
            e.size = Size { count, count };
            break;
        case Macro::TransformMap:
            // init {} (30); cel.@mapInsert(accu, k, t) (3 + t); result (1).
            once = kMapCreateBaseCost + 1;
            perIteration = 3;
            iteration = guarded(addSat(3, last.cost));
            e.size = Size { count, count };
            break;
        case Macro::TransformMapEntry:
            // init {} (30); cel.@mapInsert(accu, entry) (2 + entry); result (1).
            once = kMapCreateBaseCost + 1;
            perIteration = 2;
            iteration = guarded(addSat(2, last.cost));
            e.size = Size { count, count };
            break;
        case Macro::SortBy: {
            // cel.bind(in, range, in.@sortByAssociatedKeys(in.map(x, key))): bind 10, ident 1,
            // the map comprehension over the bound list (range ident 1, init 10, result 1,
            // 12 + key per element) and the sort of the keys (2 x n^2 + 11, 2.1 for strings).
            uint64_t mapCost = addSat(kListCreateBaseCost + 2, mulSat(count, addSat(12, last.cost)));
            double factor = (last.node && (last.node->type.k == K::String || last.node->type.k == K::Bytes))
                ? 2.0 + kStringTraversalCostFactor
                : 2.0;
            uint64_t sortCost = addSat(byFactor(mulSat(count, count), factor), 1 + kListCreateBaseCost);
            n.runCost = 0;
            n.iterCost = 1;
            uint64_t total = addSat(addSat(kListCreateBaseCost + 1, range.cost), addSat(mapCost, sortCost));
            return { total, Size { mulSat(sizeOf(range).min, sizeOf(range).min), mulSat(count, count) },
                std::nullopt, Place::None, nullptr };
        }
        default:
            break;
        }
        // Evaluation charges the per-element overhead (loop condition and step) on top of the
        // body; the initialiser and result (`once`) are left out, which keeps it below the
        // estimate.
        n.runCost = 0;
        n.iterCost = uint16_t(perIteration);
        n.sizeBound[0] = uint32_t(std::min<uint64_t>(count, UINT32_MAX));
        (void)once;
        e.cost = addSat(addSat(range.cost, once), mulSat(count, iteration));
        return e;
    }

    /// A call whose cost depends on its operands' sizes, as the rule families below read it: its
    /// name `f`, whether it has a receiver, its operands' sizes `sz(i)` and types `types(i)`.
    /// They fill in what the call costs itself (`own`), the rule evaluation charges it by, and
    /// the size and entry of its result (`e`).
    struct SizedCall
    {
        SizedCall(Node& node, std::vector<Est>& args, Est& result)
            : n(node)
            , a(args)
            , e(result)
            , f(node.name)
            , member(node.hasReceiver)
        { }

        Node& n;
        std::vector<Est>& a;
        Est& e;
        const std::string& f;
        const bool member;
        uint64_t own = 1;
        CostRule rule = CostRule::Fixed;

        Size sz(size_t i) const { return sizeOf(a[i]); }
        const CelType& types(size_t i) const { return n.args[i]->type; }

        /// Costs the call by the family that knows its name; any other keeps 1 and Fixed.
        void estimate()
        {
            if (!operatorCost() && !stringCost())
                collectionCost();
        }

        // Comparisons, `+` and `in`. False when `n` is none of them.
        bool operatorCost()
        {
            if (f == "_==_" || f == "_!=_") {
                own = traversal(std::min(sz(0).max, sz(1).max));
                rule = CostRule::Equality;
                if (f == "_==_")
                    own = kubernetesEqualityCost(types(0), types(1), a[1].size).value_or(own);
                // Values of Kubernetes types measure 1 at run time whatever size the estimate
                // gave them, and Kubernetes' CallCost charges their `==` 1: a constant 1.
                if (isKubernetesValue(types(0)) && isKubernetesValue(types(1)))
                    rule = CostRule::Fixed;
            } else if (f == "_<_" || f == "_<=_" || f == "_>_" || f == "_>=_") {
                // Every candidate overload counts (a dyn operand matches several): strings and bytes
                // cost 0.1 x the smaller maximum size, the others 1.
                bool textual = bothTextual(types(0), types(1));
                bool other = !(types(0).k == K::String || types(0).k == K::Bytes || types(1).k == K::String
                    || types(1).k == K::Bytes);
                uint64_t t = textual ? traversal(std::min(sz(0).max, sz(1).max)) : 0;
                own = std::max<uint64_t>(other ? 1 : 0, t);
                rule = CostRule::Ordering;
            } else if (f == "_+_") {
                bool textual = bothTextual(types(0), types(1));
                bool listy = mayBe(types(0), K::List) && mayBe(types(1), K::List);
                Size sum = sz(0).plus(sz(1));
                // cel-go's AddString/AddBytes cost is the traversal alone: two empty literals cost 0.
                // The 1 of the other overloads (lists, numbers) counts only while they are candidates,
                // i.e. unless both operands are known strings or known bytes.
                const bool onlyTextual = (types(0).k == K::String && types(1).k == K::String)
                    || (types(0).k == K::Bytes && types(1).k == K::Bytes);
                own = onlyTextual ? 0 : 1;
                if (textual)
                    own = std::max(own, traversal(sum.max));
                if (textual || listy) {
                    e.size = sum;
                    e.entry = uniteEntries(a[0].entry, a[1].entry);
                }
                rule = CostRule::Add;
            } else if (f == "@in") {
                bool listy = mayBe(types(1), K::List);
                bool mappy = mayBe(types(1), K::Map);
                own = std::max<uint64_t>(listy ? sz(1).max : 0, mappy ? 1 : 0);
                rule = CostRule::In;
            } else {
                return false;
            }
            return true;
        }

        // String functions: traversals, regular expressions, conversions, IP addresses.
        bool stringCost()
        {
            if (f == "contains" && member) {
                own = mulSat(traversal(sz(0).max), traversal(sz(1).max));
                rule = CostRule::Contains;
            } else if ((f == "startsWith" || f == "endsWith") && member) {
                // Only the argument is traversed, not the receiver.
                own = traversal(sz(1).max);
                rule = CostRule::PrefixSuffix;
            } else if ((f == "matches" && member) || ((f == "find" || f == "findAll") && member)) {
                own = mulSat(
                    traversal(addSat(sz(0).max, 1)), byFactor(sz(1).max, kRegexStringLengthCostFactor));
                if (f != "matches")
                    e.size = Size { 0, sz(0).max };
                rule = f == "matches" ? CostRule::Matches : CostRule::Find;
            } else if ((f == "string" || f == "bytes") && n.args.size() == 1) {
                // string(bytes) and bytes(string) traverse their argument; every other conversion
                // costs 1 and has a result of unknown size. A dyn argument matches all overloads,
                // so the bounded result of the traversing one applies.
                K from = f == "string" ? K::Bytes : K::String;
                if (mayBe(types(0), from)) {
                    own = traversal(sz(0).max);
                    if (types(0).isDyn())
                        own = std::max<uint64_t>(own, 1); // the other overloads cost 1
                    e.size = f == "string" ? Size { sz(0).min / 4, sz(0).max }
                                           : Size { sz(0).min, mulSat(sz(0).max, 4) };
                    rule = CostRule::ConvertSized;
                }
            } else if (f == "format" && member) {
                own = traversal(sz(0).max);
                e.size = sz(0).plus(sz(1));
                rule = CostRule::Traverse;
            } else if (f == "strings.quote") {
                own = traversal(sz(0).max);
                e.size = Size { addSat(sz(0).min, 2), addSat(mulSat(sz(0).max, 2), 2) };
                rule = CostRule::Traverse;
            } else if (f == "url" && !member) {
                // Kubernetes gives the URL its argument's size (the size a later `==` reads).
                own = traversal(sz(0).max);
                e.size = sz(0);
                rule = CostRule::Traverse;
            } else if ((f == "lowerAscii" || f == "upperAscii" || f == "substring" || f == "trim")
                && member) {
                own = traversal(sz(0).max);
                e.size = sz(0);
                rule = CostRule::Traverse;
            } else if (f == "replace" && member && n.args.size() >= 3) {
                own = byFactor(sz(0).max, 2 * kStringTraversalCostFactor);
                e.size = replaceSize(sz(0), sz(1), sz(2));
                rule = CostRule::TraverseTwice;
            } else if (f == "split" && member) {
                own = byFactor(sz(0).max, 2 * kStringTraversalCostFactor);
                uint64_t maxParts = sz(0).max;
                if (n.args.size() > 2 && isPlainLiteral(*a[2].node))
                    maxParts = uint64_t(a[2].node->literal.i); // a constant limit (as uint)
                e.size = Size { 0, maxParts };
                rule = CostRule::TraverseTwice;
            } else if (f == "join" && member) {
                // The list's elements have no declared bound: list size x unknown element size.
                Size list = sz(0);
                Size total = list.times(kUnknown);
                if (n.args.size() > 1) {
                    Size separators { list.min > 0 ? list.min - 1 : 0, list.max > 0 ? list.max - 1 : 0 };
                    total = total.plus(sz(1).times(separators));
                }
                own = traversal(total.max);
                e.size = total;
                rule = CostRule::Join;
            } else if (f == "containsIP" && member) {
                // Comparing two 4- or 16-byte addresses, plus parsing a string argument.
                own = traversal(32);
                if (types(1).k == K::String)
                    own = addSat(own, traversal(sz(1).max));
                rule = CostRule::ContainsIP;
            } else if (f == "containsCIDR" && member) {
                own = addSat(addSat(traversal(32), traversal(16)), 1);
                if (types(1).k == K::String)
                    own = addSat(own, traversal(sz(1).max));
                rule = CostRule::ContainsCIDR;
            } else {
                return false;
            }
            return true;
        }

        // List and set functions: scans, allocations, sorting.
        bool collectionCost()
        {
            if ((f == "isSorted" || f == "sum" || f == "max" || f == "min" || f == "indexOf"
                    || f == "lastIndexOf")
                && member) {
                // Kubernetes: one unit per element, plus a traversal of string/bytes elements; on a
                // string receiver (indexOf) a traversal of the string.
                // The elements of a list have no declared bound (Kubernetes asks its size estimator
                // for the list's items, which DRA does not declare), so string elements make it
                // unbounded. A dyn receiver has no element type: it is costed like a string.
                if (types(0).k == K::List) {
                    uint64_t perElement = 1;
                    const CelType& elem = types(0).params[0];
                    if (elem.k == K::String || elem.k == K::Bytes)
                        perElement = addSat(1, traversal(kUnknown.max));
                    own = mulSat(sz(0).max, perElement);
                    rule = CostRule::ListScan;
                } else {
                    own = traversal(sz(0).max);
                    rule = CostRule::Traverse;
                }
            } else if (f == "sets.contains" || f == "sets.intersects" || f == "sets.equivalent") {
                double factor = f == "sets.equivalent" ? 2 : 1;
                own = addSat(byFactor(sz(0).times(sz(1)).max, factor), 1);
                rule = CostRule::Sets;
            } else if (f == "slice" && member) {
                uint64_t start = literalUint(a[1], 0);
                uint64_t end = literalUint(a[2], sz(0).max);
                uint64_t count = end - start; // unsigned, as in cel-go
                own = addSat(count, 1 + kListCreateBaseCost);
                e.size = Size::fixed(count);
                rule = CostRule::ListAlloc;
            } else if (f == "lists.range") {
                uint64_t count = literalUint(a[0], kMaxU);
                own = addSat(count, 1 + kListCreateBaseCost);
                e.size = Size::fixed(count);
                rule = CostRule::ListAlloc;
            } else if (f == "reverse" && member) {
                own = addSat(sz(0).max, 1 + kListCreateBaseCost);
                e.size = sz(0);
                rule = CostRule::ListAlloc;
            } else if (f == "flatten" && member) {
                uint64_t depth = n.args.size() > 1 ? literalUint(a[1], kMaxU) : 1;
                own = addSat(byFactor(sz(0).max, double(depth)), 1 + kListCreateBaseCost);
                e.size = sz(0);
                rule = CostRule::Flatten;
            } else if ((f == "distinct" || f == "sort") && member) {
                const CelType& elem = types(0).k == K::List ? types(0).params[0] : types(0);
                double factor = f == "sort" && (elem.k == K::String || elem.k == K::Bytes)
                    ? 2.0 + kStringTraversalCostFactor
                    : 2.0;
                Size squared = sz(0).times(sz(0));
                own = addSat(byFactor(squared.max, factor), 1 + kListCreateBaseCost);
                e.size = squared;
                rule = CostRule::SelfCompare;
            } else {
                return false;
            }
            return true;
        }
    };

    Est call(Node& n)
    {
        std::vector<Est> a;
        a.reserve(n.args.size());
        uint64_t argCost = 0;
        for (auto& x : n.args) {
            a.push_back(run(*x));
            argCost = addSat(argCost, a.back().cost);
        }
        const std::string& f = n.name;
        // Functions with a rule of their own; every other call costs 1 plus its arguments.
        static const std::unordered_set<std::string_view> kSizeDependent = { "dyn", "_==_", "_!=_", "_<_",
            "_<=_", "_>_", "_>=_", "_+_", "@in", "contains", "startsWith", "endsWith", "matches", "find",
            "findAll", "string", "bytes", "format", "strings.quote", "isSorted", "sum", "max", "min",
            "indexOf", "lastIndexOf", "url", "lowerAscii", "upperAscii", "substring", "trim", "replace",
            "split", "join", "containsIP", "containsCIDR", "sets.contains", "sets.intersects",
            "sets.equivalent", "slice", "lists.range", "reverse", "flatten", "distinct", "sort" };
        if (!kSizeDependent.count(f)) {
            n.costRule = CostRule::Fixed;
            n.runCost = 1;
            return { addSat(argCost, 1), std::nullopt, std::nullopt, Place::None, nullptr };
        }
        if (f == "dyn") {
            // dyn() only hides the type: 1 plus its argument, sizes carried over.
            n.runCost = 1;
            Est e = a[0];
            e.cost = addSat(argCost, 1);
            return e;
        }
        Est e;
        n.runCost = 0;
        SizedCall c(n, a, e);
        c.estimate();
        uint64_t own = c.own;
        CostRule rule = c.rule;
        // Where the formula cannot vary, evaluation charges a constant (the hot comparisons of
        // typical selectors then measure nothing): operands whose sizes the estimator knows
        // exactly (literals), operands of no size dependence, or a smaller bound of at most 10,
        // where 0.1 x size rounds up to 1 (decision: an empty operand is then charged 1 rather
        // than cel-go's 0; still within the estimate).
        bool exact = n.args.size() >= 2 && c.sz(0).min == c.sz(0).max && c.sz(1).min == c.sz(1).max;
        bool sized = rule == CostRule::Equality || rule == CostRule::Ordering || rule == CostRule::Add;
        bool constant = (exact && sized) || (rule == CostRule::In && c.sz(1).min == c.sz(1).max);
        if (sized) {
            bool textual = rule == CostRule::Equality || bothTextual(c.types(0), c.types(1));
            uint64_t smaller = std::min(c.sz(0).max, c.sz(1).max);
            if (!textual || (rule != CostRule::Add && smaller <= 10) || constant)
                rule = CostRule::Fixed;
        } else if (rule == CostRule::In && (!mayBe(c.types(1), K::List) || constant)) {
            rule = CostRule::Fixed; // a map, or a list of known size (a literal)
        }
        n.costRule = rule;
        uint64_t fixed = constant ? own : std::min<uint64_t>(own, 1);
        n.runCost = rule == CostRule::Fixed ? uint32_t(std::min<uint64_t>(fixed, UINT32_MAX)) : 0;
        for (size_t i = 0; i < 2 && i < a.size(); ++i)
            n.sizeBound[i] = uint32_t(std::min<uint64_t>(c.sz(i).max, UINT32_MAX));
        e.cost = addSat(argCost, own);
        return e;
    }

    static bool isPlainLiteral(const Node& n)
    {
        return n.kind == NodeKind::Literal && n.args.empty() && n.literal.kind == Kind::Int;
    }

    /// cel-go's nodeAsUintValue: an int constant written in the expression, else the default.
    static uint64_t literalUint(const Est& e, uint64_t fallback)
    {
        if (!e.node || !isPlainLiteral(*e.node))
            return fallback;
        return uint64_t(e.node->literal.i);
    }

    /// Kubernetes' size bound of s.replace(old, new): as many replacements as the shortest
    /// `old` fits into the longest `s`, each as long as the longest `new`.
    static Size replaceSize(const Size& s, const Size& from, const Size& to)
    {
        Size count { 0, 0 }, kept { 0, 0 };
        if (from.min == 0) {
            count.max = s.max < kMaxU ? s.max + 1 : s.max;
            kept.max = s.max;
        } else if (to.max <= from.min) {
            count.max = 0;
            kept.max = s.max;
        } else {
            count.max = uint64_t(std::ceil(double(s.max) / double(from.min)));
        }
        if (from.max == 0) {
            count.min = s.min < kMaxU ? s.min + 1 : s.min;
            kept.min = s.min;
        } else if (from.max <= to.min) {
            count.min = 0;
            kept.min = s.min;
        } else {
            count.min = uint64_t(std::ceil(double(s.min) / double(from.max)));
        }
        return count.times(to).plus(kept);
    }
};

} // namespace

double estimateCost(Node& root)
{
    return double(Estimator().run(root).cost);
}

} // namespace drasim::cel
