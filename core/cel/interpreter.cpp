// SPDX-License-Identifier: Apache-2.0
#include "core/cel/interpreter.h"

#include <algorithm>
#include <set>

#include "core/cel/builtins.h"
#include "core/cel/runtime_cost.h"

namespace drasim::cel {

namespace {

/// A copy of a program-owned value without touching its reference count: the program outlives
/// every evaluation, and results never escape it except as bool/error.
Value borrow(const Value& v)
{
    Value r;
    r.kind = v.kind;
    r.flag = v.flag;
    r.aux = v.aux;
    static_assert(sizeof(r.u) == sizeof(r.p));
    r.u = v.u;
    r.n = v.n;
    return r;
}

/// Splits a qualified attribute/capacity name: "dom/id" → (dom, id); "id" → (driver, id).
void splitQualified(
    std::string_view key, std::string_view driver, std::string_view* domain, std::string_view* id)
{
    size_t slash = key.find('/');
    if (slash == std::string_view::npos) {
        *domain = driver;
        *id = key;
    } else {
        *domain = key.substr(0, slash);
        *id = key.substr(slash + 1);
    }
}

bool keyMatches(std::string_view key, std::string_view driver, std::string_view domain, std::string_view name)
{
    if (key.size() == name.size())
        return domain == driver && key == name;
    return key.size() == domain.size() + 1 + name.size() && key[domain.size()] == '/'
        && key.starts_with(domain) && key.ends_with(name);
}

Value capacityValue(const api::DeviceCapacity& c)
{
    // Stored capacities reach the allocator re-parsed from their canonical form (cel.md §8).
    return Value::capacityRef(&c.value);
}

std::string keyText(const Value& key)
{
    if (key.kind == Kind::String)
        return std::string(key.str());
    std::string s = debugString(key);
    return s;
}

Value selectOn(EvalContext& ctx, const Value& operand, std::string_view field, bool* missing);

Value indexOn(EvalContext& ctx, const Value& operand, const Value& index, bool* missing)
{
    *missing = false;
    switch (operand.kind) {
    case Kind::List: {
        const auto& items = operand.listData();
        int64_t i = 0;
        if (index.kind == Kind::Int) {
            i = index.i;
        } else if (index.kind == Kind::Uint && index.u <= uint64_t(INT64_MAX)) {
            i = int64_t(index.u);
        } else if (index.kind == Kind::Double && index.d == double(int64_t(index.d))) {
            i = int64_t(index.d);
        } else {
            return Value::error("unsupported index type '" + std::string(typeName(index)) + "' in list");
        }
        if (i < 0 || i >= int64_t(items.size())) {
            *missing = true;
            return Value::error("index '" + std::to_string(i) + "' out of range in list size '"
                + std::to_string(items.size()) + "'");
        }
        return items[size_t(i)];
    }
    case Kind::Map: {
        const Value* v = mapFind(operand.mapData(), index);
        if (!v) {
            *missing = true;
            return noSuchKey(keyText(index));
        }
        return *v;
    }
    case Kind::DeviceMaps:
    case Kind::DeviceDomain:
        if (index.kind != Kind::String) {
            *missing = true;
            return noSuchKey(keyText(index));
        }
        {
            Value r = selectOn(ctx, operand, index.str(), missing);
            if (r.kind == Kind::DeviceDomain)
                r.owner = index.owner; // the domain text may be a computed string
            return r;
        }
    default:
        return noSuchOverload("_[_]");
    }
}

Value selectOn(EvalContext& ctx, const Value& operand, std::string_view field, bool* missing)
{
    *missing = false;
    switch (operand.kind) {
    case Kind::Device: {
        const DeviceView& d = *ctx.device;
        if (field == "driver")
            return Value::stringView(d.driver);
        if (field == "attributes" || field == "capacity") {
            Value r;
            r.kind = Kind::DeviceMaps;
            r.flag = field == "capacity" ? 1 : 0;
            return r;
        }
        if (field == "allowMultipleAllocations")
            return Value::boolean(d.allowMultipleAllocations);
        *missing = true;
        return Value::error("no such field: " + std::string(field));
    }
    case Kind::DeviceMaps: {
        // Unknown domains are empty maps (cel.md §10), so this never fails.
        Value r = Value::stringView(field, Kind::DeviceDomain);
        r.flag = operand.flag;
        return r;
    }
    case Kind::DeviceDomain: {
        Value out;
        if (lookupDeviceEntry(*ctx.device, operand.flag, operand.str(), field, &out))
            return out;
        *missing = true;
        return noSuchKey(field);
    }
    case Kind::Map: {
        for (const auto& [k, v] : operand.mapData().entries) {
            if (k.kind == Kind::String && k.str() == field)
                return v;
        }
        *missing = true;
        return noSuchKey(field);
    }
    default:
        return noSuchOverload("_._");
    }
}

/// Optional chaining: `opt.f` on optional values and `x.?f`.
Value optionalAccess(EvalContext& ctx, const Value& operand, const Node& n, const Value* index)
{
    Value base = operand;
    if (operand.kind == Kind::Optional) {
        if (!operand.optionalValue())
            return operand;
        base = *operand.optionalValue();
    }
    bool missing = false;
    Value r = index ? indexOn(ctx, base, *index, &missing) : selectOn(ctx, base, n.name, &missing);
    if (missing)
        return Value::optionalNone();
    if (r.isError())
        return r;
    return Value::optionalOf(r);
}

Value notBool(const Value& v)
{
    if (v.isError())
        return v;
    return noSuchOverload("logical operator");
}

Value evalAndOr(EvalContext& ctx, const Node& n, bool isAnd)
{
    // Commutative: the deciding value (false for &&, true for ||) wins over errors on either side.
    Value l = evaluateNode(ctx, *n.args[0]);
    if (l.kind == Kind::Bool && l.b != isAnd)
        return l;
    Value r = evaluateNode(ctx, *n.args[1]);
    if (r.kind == Kind::Bool && r.b != isAnd)
        return r;
    if (l.kind == Kind::Bool && r.kind == Kind::Bool)
        return l;
    return l.kind != Kind::Bool ? notBool(l) : notBool(r);
}

Value evalHas(EvalContext& ctx, const Node& n)
{
    Value operand = evaluateNode(ctx, *n.args[0]);
    if (operand.isError())
        return operand;
    switch (operand.kind) {
    case Kind::Device:
        return Value::boolean(true);
    case Kind::DeviceMaps:
        return Value::boolean(true); // the outer maps answer every domain (cel.md §10)
    case Kind::DeviceDomain: {
        Value ignored;
        return Value::boolean(lookupDeviceEntry(*ctx.device, operand.flag, operand.str(), n.name, &ignored));
    }
    case Kind::Map:
        for (const auto& [k, v] : operand.mapData().entries) {
            if (k.kind == Kind::String && k.str() == n.name)
                return Value::boolean(true);
        }
        return Value::boolean(false);
    default:
        return Value::error("invalid type for field selection.");
    }
}

Value evalList(EvalContext& ctx, const Node& n)
{
    ListData items;
    items.reserve(n.args.size());
    for (size_t i = 0; i < n.args.size(); ++i) {
        Value v = evaluateNode(ctx, *n.args[i]);
        if (v.isError())
            return v;
        if (n.optionalEntries[i]) {
            if (v.kind != Kind::Optional)
                return noSuchOverload("optional list element");
            if (!v.optionalValue())
                continue;
            v = *v.optionalValue();
        }
        if (!v.owner && v.kind != Kind::Null && v.kind != Kind::Bool && !v.isNumber())
            v = materialize(ctx, v);
        items.push_back(std::move(v));
    }
    return Value::list(std::move(items));
}

bool validMapKey(const Value& k)
{
    return k.kind == Kind::Int || k.kind == Kind::Uint || k.kind == Kind::Bool || k.kind == Kind::String;
}

Value evalMap(EvalContext& ctx, const Node& n)
{
    MapData data;
    for (size_t i = 0; i < n.args.size(); i += 2) {
        Value k = evaluateNode(ctx, *n.args[i]);
        if (k.isError())
            return k;
        Value v = evaluateNode(ctx, *n.args[i + 1]);
        if (v.isError())
            return v;
        if (!validMapKey(k))
            return Value::error("unsupported key type");
        if (n.optionalEntries[i / 2]) {
            if (v.kind != Kind::Optional)
                return noSuchOverload("optional map entry");
            if (!v.optionalValue())
                continue;
            v = *v.optionalValue();
        }
        if (mapFind(data, k))
            return Value::error("Failed with repeated key");
        k = materialize(ctx, k);
        v = materialize(ctx, v);
        data.entries.emplace_back(std::move(k), std::move(v));
    }
    return Value::map(std::move(data));
}

/// Sorts a list by keys computed per element (lists extension sortBy); keys must be of one
/// orderable type.
Value evalSortBy(EvalContext& ctx, const Node& n, const Value& range)
{
    if (range.kind != Kind::List)
        return Value::error("got '" + std::string(typeName(range)) + "', expected iterable type");
    const auto& items = range.listData();
    std::vector<std::pair<Value, size_t>> keys;
    for (size_t i = 0; i < items.size(); ++i) {
        ctx.locals[n.slot] = items[i];
        Value k = evaluateNode(ctx, *n.args[1]);
        if (k.isError())
            return k;
        bool orderable
            = k.isNumber() || k.kind == Kind::String || k.kind == Kind::Bytes || k.kind == Kind::Bool;
        if (!orderable || (!keys.empty() && keys[0].first.kind != k.kind))
            return Value::error("list elements must have the same type");
        keys.emplace_back(std::move(k), i);
    }
    std::stable_sort(keys.begin(), keys.end(), [](const auto& x, const auto& y) {
        if (x.first.isNumber())
            return compareNumbers(x.first, y.first) == -1;
        if (x.first.kind == Kind::Bool)
            return !x.first.b && y.first.b;
        return x.first.str() < y.first.str();
    });
    ListData out;
    for (const auto& [k, i] : keys)
        out.push_back(items[i]);
    return Value::list(std::move(out));
}

/// `opt.optMap(x, e)` and `opt.optFlatMap(x, e)`: the body on the optional's value, if any.
Value evalOptMap(EvalContext& ctx, const Node& n, const Value& range)
{
    if (range.kind != Kind::Optional)
        return noSuchOverload("optMap");
    if (!range.optionalValue())
        return range;
    ctx.locals[n.slot] = *range.optionalValue();
    Value r = evaluateNode(ctx, *n.args[1]);
    if (r.isError() || n.macro == Macro::OptFlatMap)
        return r.isError() || r.kind == Kind::Optional ? r : noSuchOverload("optFlatMap");
    return Value::optionalOf(materialize(ctx, r));
}

/// One element of map, filtered map and the transform macros: the filter, then the body into
/// the list or map being built. An error Value when the element fails, else a Value that is none.
Value mapElement(EvalContext& ctx, const Node& n, const Node* filter, const Value& elem, ListData& outList,
    MapData& outMap)
{
    if (filter) {
        Value p = evaluateNode(ctx, *filter);
        if (p.isError())
            return p;
        if (p.kind != Kind::Bool)
            return noSuchOverload("filter predicate");
        if (!p.b)
            return {};
    }
    Value t = evaluateNode(ctx, *n.args.back());
    if (t.isError())
        return t;
    t = materialize(ctx, t);
    if (n.macro == Macro::TransformMap) {
        outMap.entries.emplace_back(materialize(ctx, elem), std::move(t));
    } else if (n.macro == Macro::TransformMapEntry) {
        if (t.kind != Kind::Map)
            return noSuchOverload("transformMapEntry");
        for (const auto& [k, v] : t.mapData().entries) {
            if (mapFind(outMap, k))
                return Value::error("insert failed: key " + debugString(k) + " already exists");
            outMap.entries.emplace_back(k, v);
        }
    } else {
        outList.push_back(std::move(t));
    }
    return {};
}

Value evalComprehension(EvalContext& ctx, const Node& n)
{
    Value range = evaluateNode(ctx, *n.args[0]);
    if (range.isError())
        return range;
    if (n.macro == Macro::OptMap || n.macro == Macro::OptFlatMap)
        return evalOptMap(ctx, n, range);
    if (n.macro == Macro::SortBy)
        return evalSortBy(ctx, n, range);
    range = materialize(ctx, range);
    if (range.kind != Kind::List && range.kind != Kind::Map)
        return Value::error("got '" + std::string(typeName(range)) + "', expected iterable type");
    bool isList = range.kind == Kind::List;
    size_t count = isList ? range.listData().size() : range.mapData().entries.size();
    bool twoVars = n.slot2 >= 0;
    Value* v1 = &ctx.locals[n.slot];
    Value* v2 = twoVars ? &ctx.locals[n.slot2] : nullptr;

    bool anyTrue = false;
    int trueCount = 0;
    Value firstError;
    ListData outList;
    MapData outMap;
    const Node& body = *n.args.back();
    const Node* filter = (n.macro == Macro::MapFilter || n.filtered) ? n.args[1].get() : nullptr;

    // Decision: elements beyond the count the estimator assumed for the range (cel-go's bound
    // for "".split(",") is 0 elements, yet it yields one) are evaluated but not charged, so
    // the actual cost stays within the estimate; see runtime_cost.h.
    struct Uncharged
    {
        EvalContext& ctx;
        int64_t from = -1; ///< cost when the first uncharged element began
        ~Uncharged()
        {
            if (from >= 0 && !ctx.cancelled)
                ctx.cost = from;
        }
    } uncharged { ctx };
    for (size_t i = 0; i < count; ++i) {
        if (ctx.cancelled)
            return costLimitError();
        if (i >= n.sizeBound[0] && uncharged.from < 0)
            uncharged.from = ctx.cost;
        ctx.charge(n.iterCost); // loop condition and step of the macro's expansion
        if (isList) {
            const Value& elem = range.listData()[i];
            if (twoVars) {
                *v1 = Value::integer(int64_t(i));
                *v2 = elem;
            } else {
                *v1 = elem;
            }
        } else {
            const auto& entry = range.mapData().entries[i];
            *v1 = entry.first;
            if (twoVars)
                *v2 = entry.second;
        }
        switch (n.macro) {
        case Macro::All:
        case Macro::Exists: {
            bool decider = n.macro == Macro::Exists;
            Value p = evaluateNode(ctx, body);
            if (p.kind == Kind::Bool) {
                if (p.b == decider) {
                    anyTrue = true;
                    i = count; // stop: the deciding value absorbs earlier errors
                }
            } else if (!firstError.isError()) {
                firstError = p.isError() ? p : noSuchOverload("comprehension predicate");
            }
            break;
        }
        case Macro::ExistsOne: {
            Value p = evaluateNode(ctx, body);
            if (p.isError())
                return p;
            if (p.kind != Kind::Bool)
                return noSuchOverload("exists_one predicate");
            trueCount += p.b ? 1 : 0;
            break;
        }
        case Macro::Filter: {
            Value p = evaluateNode(ctx, body);
            if (p.isError())
                return p;
            if (p.kind != Kind::Bool)
                return noSuchOverload("filter predicate");
            if (p.b)
                outList.push_back(materialize(ctx, *v1));
            break;
        }
        case Macro::Map:
        case Macro::MapFilter:
        case Macro::TransformList:
        case Macro::TransformMap:
        case Macro::TransformMapEntry: {
            Value failed = mapElement(ctx, n, filter, *v1, outList, outMap);
            if (failed.isError())
                return failed;
            break;
        }
        case Macro::None:
        case Macro::SortBy:
        case Macro::OptMap:
        case Macro::OptFlatMap:
            break;
        }
    }
    switch (n.macro) {
    case Macro::All:
        if (anyTrue)
            return Value::boolean(false);
        return firstError.isError() ? firstError : Value::boolean(true);
    case Macro::Exists:
        if (anyTrue)
            return Value::boolean(true);
        return firstError.isError() ? firstError : Value::boolean(false);
    case Macro::ExistsOne:
        return Value::boolean(trueCount == 1);
    case Macro::TransformMap:
    case Macro::TransformMapEntry:
        return Value::map(std::move(outMap));
    default:
        return Value::list(std::move(outList));
    }
}

Value evalCall(EvalContext& ctx, const Node& n)
{
    constexpr size_t kInline = 4;
    size_t count = n.args.size();
    if (count > kInline) {
        std::vector<Value> args;
        args.reserve(count);
        for (const auto& a : n.args) {
            args.push_back(evaluateNode(ctx, *a));
            if (args.back().isError())
                return args.back();
        }
        if (chargedBeforeCall(n) && !ctx.charge(dynamicCallCost(ctx, n, args.data(), count)))
            return costLimitError();
        return n.fn(ctx, args.data(), count, n);
    }
    Value args[kInline];
    for (size_t i = 0; i < count; ++i) {
        const Node& a = *n.args[i];
        // Literal arguments are read in place: saves a dispatch on the hottest path.
        if (a.kind == NodeKind::Literal) {
            args[i] = borrow(a.literal);
            continue;
        }
        args[i] = evaluateNode(ctx, a);
        if (args[i].isError())
            return args[i];
    }
    // Size-dependent cost, charged like the estimate assumed it, before the call runs.
    if (chargedBeforeCall(n) && !ctx.charge(dynamicCallCost(ctx, n, args, count)))
        return costLimitError();
    return n.fn(ctx, args, count, n);
}

} // namespace

Value costLimitError()
{
    return Value::error("operation cancelled: actual cost limit exceeded");
}

Value noSuchKey(std::string_view key)
{
    return Value::error("no such key: " + std::string(key));
}

Value attributeValue(const api::DeviceAttribute& a)
{
    switch (a.type) {
    case api::DeviceAttribute::Type::Int:
        return Value::integer(a.intValue);
    case api::DeviceAttribute::Type::Bool:
        return Value::boolean(a.boolValue);
    case api::DeviceAttribute::Type::String:
        return Value::stringView(a.stringValue);
    case api::DeviceAttribute::Type::Version:
        return semverFromString(a.stringValue, false);
    }
    return Value();
}

bool lookupDeviceEntry(
    const DeviceView& device, int flag, std::string_view domain, std::string_view name, Value* out)
{
    if (flag == 0) {
        if (!device.attributes)
            return false;
        for (const auto& [key, attr] : *device.attributes) {
            if (keyMatches(key, device.driver, domain, name)) {
                *out = attributeValue(attr);
                return true;
            }
        }
        return false;
    }
    if (!device.capacity)
        return false;
    for (const auto& [key, cap] : *device.capacity) {
        if (keyMatches(key, device.driver, domain, name)) {
            *out = capacityValue(cap);
            return true;
        }
    }
    return false;
}

Value materialize(EvalContext& ctx, const Value& v)
{
    if (v.kind == Kind::DeviceMaps) {
        std::set<std::string, std::less<>> domains;
        auto collect = [&](const auto* m) {
            if (!m)
                return;
            for (const auto& entry : *m) {
                std::string_view domain, id;
                splitQualified(entry.first, ctx.device->driver, &domain, &id);
                domains.insert(std::string(domain));
            }
        };
        if (v.flag == 0)
            collect(ctx.device->attributes);
        else
            collect(ctx.device->capacity);
        MapData data;
        for (const auto& d : domains) {
            Value inner = Value::string(d, Kind::DeviceDomain);
            inner.flag = v.flag;
            data.entries.emplace_back(Value::string(d), materialize(ctx, inner));
        }
        return Value::map(std::move(data));
    }
    if (v.kind == Kind::DeviceDomain) {
        MapData data;
        auto collect = [&](const auto* m, auto convert) {
            if (!m)
                return;
            for (const auto& [key, value] : *m) {
                std::string_view domain, id;
                splitQualified(key, ctx.device->driver, &domain, &id);
                if (domain == v.str())
                    data.entries.emplace_back(Value::string(std::string(id)), convert(value));
            }
        };
        if (v.flag == 0)
            collect(ctx.device->attributes, [](const api::DeviceAttribute& a) { return attributeValue(a); });
        else
            collect(ctx.device->capacity, [](const api::DeviceCapacity& c) { return capacityValue(c); });
        return Value::map(std::move(data));
    }
    return v;
}

Value evaluateNode(EvalContext& ctx, const Node& n)
{
    // Each node's own cost as the estimator counted it (constants and logical operators are
    // free, identifiers and selections 1, ...); size-dependent parts are charged per call.
    if (!ctx.charge(n.runCost))
        return costLimitError();
    switch (n.kind) {
    case NodeKind::Literal:
        return borrow(n.literal);
    case NodeKind::Local:
        return ctx.locals[n.slot];
    case NodeKind::DeviceVar: {
        Value r;
        r.kind = Kind::Device;
        return r;
    }
    case NodeKind::DeviceDriver:
        return Value::stringView(ctx.device->driver);
    case NodeKind::DeviceAttr: {
        Value out;
        if (lookupDeviceEntry(*ctx.device, n.slot, n.name, n.name2, &out))
            return out;
        return noSuchKey(n.name2);
    }
    case NodeKind::Select: {
        Value operand = evaluateNode(ctx, *n.args[0]);
        if (operand.isError())
            return operand;
        if (operand.kind == Kind::Optional)
            return optionalAccess(ctx, operand, n, nullptr);
        bool missing = false;
        return selectOn(ctx, operand, n.name, &missing);
    }
    case NodeKind::OptSelect: {
        Value operand = evaluateNode(ctx, *n.args[0]);
        if (operand.isError())
            return operand;
        return optionalAccess(ctx, operand, n, nullptr);
    }
    case NodeKind::Index:
    case NodeKind::OptIndex: {
        Value operand = evaluateNode(ctx, *n.args[0]);
        if (operand.isError())
            return operand;
        Value index = evaluateNode(ctx, *n.args[1]);
        if (index.isError())
            return index;
        if (n.kind == NodeKind::OptIndex || operand.kind == Kind::Optional)
            return optionalAccess(ctx, operand, n, &index);
        bool missing = false;
        return indexOn(ctx, operand, index, &missing);
    }
    case NodeKind::Call:
        return evalCall(ctx, n);
    case NodeKind::List:
        return evalList(ctx, n);
    case NodeKind::Map:
        return evalMap(ctx, n);
    case NodeKind::Ternary: {
        Value c = evaluateNode(ctx, *n.args[0]);
        if (c.isError())
            return c;
        if (c.kind != Kind::Bool)
            return noSuchOverload("_?_:_");
        return evaluateNode(ctx, *n.args[c.b ? 1 : 2]);
    }
    case NodeKind::And:
        return evalAndOr(ctx, n, true);
    case NodeKind::Or:
        return evalAndOr(ctx, n, false);
    case NodeKind::Has:
        return evalHas(ctx, n);
    case NodeKind::Comprehension:
        return evalComprehension(ctx, n);
    case NodeKind::Bind: {
        Value init = evaluateNode(ctx, *n.args[0]);
        ctx.locals[n.slot] = init;
        return evaluateNode(ctx, *n.args[1]);
    }
    case NodeKind::Ident:
        return Value::error("unresolved identifier " + n.name);
    }
    return Value::error("unknown node");
}

} // namespace drasim::cel
