// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace drasim::ui {

/// YAML colours for manifests: comments, keys, quoted strings, numbers and quantities, booleans
/// and null, document markers, anchors, aliases and tags, block scalar indicators. Line by line
/// (a block scalar's body keeps the plain colour), which is what manifests need.
class YamlHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    explicit YamlHighlighter(QTextDocument* parent);
    /// Picks colours readable on this base (light or dark palette).
    void setDark(bool dark);

protected:
    void highlightBlock(const QString& text) override;

private:
    void apply(
        const QString& text, const QRegularExpression& re, const QTextCharFormat& format, int group = 0);

    QTextCharFormat m_key, m_string, m_number, m_keyword, m_comment, m_marker, m_anchor;
    QRegularExpression m_keyRe, m_stringRe, m_numberRe, m_keywordRe, m_commentRe, m_markerRe, m_anchorRe;
};

} // namespace drasim::ui
