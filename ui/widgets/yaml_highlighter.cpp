// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/yaml_highlighter.h"

namespace drasim::ui {

YamlHighlighter::YamlHighlighter(QTextDocument* parent)
    : QSyntaxHighlighter(parent)
    // A key: indentation, an optional list dash, then a plain or quoted word before ": " or ":$".
    , m_keyRe(
          QStringLiteral(R"(^\s*(?:-\s+)*((?:"[^"]*"|'[^']*'|[^\s#'"{}\[\],:][^#{}\[\],:]*?))\s*:(?=\s|$))"))
    , m_stringRe(QStringLiteral(R"("(?:[^"\\]|\\.)*"|'(?:[^']|'')*')"))
    // Numbers and Kubernetes quantities (80Gi, 500m, 1e3) standing alone as a value.
    , m_numberRe(QStringLiteral(
          R"((?<=[:\-\[,{]\s|^\s)[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?:[KMGTPE]i?|m|k|n|u)?(?=\s*(?:$|#|,|\]|\})))"))
    , m_keywordRe(
          QStringLiteral(R"((?<=[:\-\[,{]\s)(?:true|false|True|False|null|Null|~)(?=\s*(?:$|#|,|\]|\})))"))
    , m_commentRe(QStringLiteral(R"((?:^|\s)(#.*)$)"))
    , m_markerRe(QStringLiteral(R"(^(?:---|\.\.\.)(?=\s|$)|(?<=:\s)[|>][-+]?\d*\s*$)"))
    , m_anchorRe(QStringLiteral(R"((?<=\s|^)[&*!][^\s,\[\]{}]+)"))
{
    setDark(false);
}

void YamlHighlighter::setDark(bool dark)
{
    m_key.setForeground(dark ? QColor(0x7c, 0xb7, 0xff) : QColor(0x1a, 0x4f, 0x9c));
    m_key.setFontWeight(QFont::DemiBold);
    m_string.setForeground(dark ? QColor(0xa5, 0xd6, 0x8a) : QColor(0x2e, 0x7d, 0x32));
    m_number.setForeground(dark ? QColor(0xf7, 0x8c, 0x6c) : QColor(0xa6, 0x4b, 0x00));
    m_keyword.setForeground(dark ? QColor(0xc7, 0x92, 0xea) : QColor(0x7b, 0x1f, 0xa2));
    m_comment.setForeground(dark ? QColor(0x8a, 0x8f, 0x98) : QColor(0x6a, 0x6a, 0x6a));
    m_comment.setFontItalic(true);
    m_marker.setForeground(dark ? QColor(0xff, 0xcb, 0x6b) : QColor(0xb0, 0x3a, 0x2e));
    m_marker.setFontWeight(QFont::Bold);
    m_anchor.setForeground(dark ? QColor(0x89, 0xdd, 0xff) : QColor(0x00, 0x79, 0x8c));
    rehighlight();
}

void YamlHighlighter::apply(
    const QString& text, const QRegularExpression& re, const QTextCharFormat& format, int group)
{
    auto it = re.globalMatch(text);
    while (it.hasNext()) {
        const auto m = it.next();
        setFormat(int(m.capturedStart(group)), int(m.capturedLength(group)), format);
    }
}

void YamlHighlighter::highlightBlock(const QString& text)
{
    apply(text, m_numberRe, m_number);
    apply(text, m_keywordRe, m_keyword);
    apply(text, m_anchorRe, m_anchor);
    apply(text, m_stringRe, m_string);
    apply(text, m_keyRe, m_key, 1);
    apply(text, m_markerRe, m_marker);
    // A '#' inside quotes is not a comment: only colour it when it is not already a string.
    auto it = m_commentRe.globalMatch(text);
    while (it.hasNext()) {
        const auto m = it.next();
        const int start = int(m.capturedStart(1));
        if (format(start) != m_string) {
            setFormat(start, int(text.size()) - start, m_comment);
            break;
        }
    }
}

} // namespace drasim::ui
