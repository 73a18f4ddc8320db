#include "widgets/common/text.h"

#include <algorithm>
#include <cstdlib>

#include <QFontMetrics>
#include <QObject>

#include "core/trace/time_format.h"

namespace contend::widgets {

QString resourceLabel(Resource r) {
    switch (r) {
    case Resource::Bandwidth: return QStringLiteral("bandwidth");
    case Resource::Compute: return QStringLiteral("compute");
    case Resource::Cache: return QStringLiteral("cache");
    case Resource::Issue: return QStringLiteral("issue");
    case Resource::Sync: return QStringLiteral("sync");
    case Resource::Lock: return QStringLiteral("lock");
    case Resource::Queue: return QStringLiteral("queue");
    case Resource::Unknown: return QStringLiteral("unknown");
    case Resource::None: break;
    }
    return QStringLiteral("-");
}

QString durationText(TimeNs ns) { return QString::fromStdString(formatDuration(ns)); }

QString timeText(TimeNs t) { return QString::fromStdString(formatTimeSince(t)); }

QString trackLabel(const Trace& trace, std::uint32_t track) {
    if (track >= trace.tracks().size()) return {};
    return QString::fromStdString(trace.tracks()[track].label());
}

QString sliceName(const Trace& trace, std::uint32_t slice) {
    if (slice >= trace.slices().size()) return {};
    const std::string_view n = trace.str(trace.slices()[slice].name);
    return QString::fromUtf8(n.data(), static_cast<qsizetype>(n.size()));
}

namespace {

// Index where a trailing " [...]" starts (at bracket depth 0), or -1.
qsizetype tailStart(const QString& s) {
    if (!s.endsWith(QLatin1Char(']'))) return -1;
    int depth = 0;
    for (qsizetype i = 0; i + 1 < s.size(); ++i) {
        const QChar c = s[i];
        if (c == QLatin1Char('(') || c == QLatin1Char('<'))
            ++depth;
        else if ((c == QLatin1Char(')') || c == QLatin1Char('>')) && depth > 0)
            --depth;
        else if (depth == 0 && c == QLatin1Char(' ') && s[i + 1] == QLatin1Char('['))
            return i;
    }
    return -1;
}

bool isOpen(QChar c) { return c == QLatin1Char('(') || c == QLatin1Char('<') || c == QLatin1Char('['); }
bool isClose(QChar c) { return c == QLatin1Char(')') || c == QLatin1Char('>') || c == QLatin1Char(']'); }

QString shortCppName(QString h) {
    // The parameter list: a balanced "(...)" at the end.
    if (h.endsWith(QLatin1Char(')'))) {
        int depth = 0;
        for (qsizetype i = h.size() - 1; i >= 0; --i) {
            if (isClose(h[i]))
                ++depth;
            else if (isOpen(h[i]) && --depth == 0) {
                if (i > 0) h.truncate(i);
                break;
            }
        }
    }
    // Return type and qualifiers: keep what follows the last space and the last "::" at depth 0.
    qsizetype from = 0;
    int depth = 0;
    for (qsizetype i = 0; i < h.size(); ++i) {
        if (isOpen(h[i]))
            ++depth;
        else if (isClose(h[i]) && depth > 0)
            --depth;
        else if (depth == 0 && h[i] == QLatin1Char(' '))
            from = i + 1;
        else if (depth == 0 && h[i] == QLatin1Char(':') && i + 1 < h.size() && h[i + 1] == QLatin1Char(':'))
            from = i + 2;
    }
    if (from < h.size()) h = h.mid(from);
    // Long template arguments.
    const qsizetype lt = h.indexOf(QLatin1Char('<'));
    if (lt > 0 && h.endsWith(QLatin1Char('>')) && h.size() - lt - 2 > 24) h = h.left(lt) + QStringLiteral("<…>");
    return h;
}

}  // namespace

QString shortOperatorName(const QString& full) {
    const qsizetype t = tailStart(full);
    const QString head = t < 0 ? full : full.left(t);
    const QString tail = t < 0 ? QString() : full.mid(t);
    const bool cpp =
        head.contains(QStringLiteral("::")) || head.contains(QLatin1Char('<')) || head.endsWith(QLatin1Char(')'));
    if (head.size() <= 40 || !cpp) return full;
    const QString s = shortCppName(head);
    return s.isEmpty() ? full : s + tail;
}

QString gainVersusSaving(const Cluster& c) {
    if (c.gainNs < 0) return {};
    if (c.gainNs > c.savingNs)
        return QObject::tr(
                   "%1 more than the %2 it saves on its stream: fusing removes all of its gaps (%3; the "
                   "saving keeps one launch gap) and the work after it starts sooner (knock-on)")
            .arg(durationText(c.gainNs - c.savingNs), durationText(c.savingNs), durationText(c.waitNs));
    if (c.gainNs < c.savingNs)
        return QObject::tr(
                   "%1 less than the %2 it saves on its stream: part of its gaps had slack (other work "
                   "decided when the run ended)")
            .arg(durationText(c.savingNs - c.gainNs), durationText(c.savingNs));
    return QObject::tr("the %1 it saves on its stream").arg(durationText(c.savingNs));
}

QString elideAtBreak(const QString& text, const QFontMetrics& fm, int width) {
    if (width <= 0) return {};
    const QString dots = QStringLiteral("…");
    const QString qt = fm.elidedText(text, Qt::ElideRight, width);
    if (qt == text || !qt.endsWith(dots)) return qt;
    // Qt keeps the first `keep` characters; any shorter head fits with the dots as well.
    const qsizetype keep = qt.size() - 1;
    if (keep <= 0 || keep >= text.size()) return qt;
    auto isBreak = [&text](qsizetype i) {
        const QChar prev = text[i - 1], next = text[i];
        return next == QLatin1Char(' ') || prev == QLatin1Char(' ') || prev == QLatin1Char(',') ||
               prev == QLatin1Char(';') || prev == QLatin1Char('=') || prev == QLatin1Char('[') ||
               prev == QLatin1Char('(') || prev == QLatin1Char('/');
    };
    qsizetype at = keep;
    while (at > 0 && !isBreak(at)) --at;
    const QString kept = at > 0 ? text.left(at).trimmed() : QString();
    // A number cut in two reads as another number, and one whole before the dots cannot be told
    // from a cut one: back up to the break before it, however far. A word cut in two is only
    // moved back while that keeps two thirds of Qt's cut.
    const QChar a = text[keep - 1], b = text[keep];
    const bool inNumber = a.isDigit() || (a.isLetterOrNumber() && b.isDigit());
    if (inNumber) {
        auto endsInDigit = [&text](qsizetype i) {
            const QString k = text.left(i).trimmed();
            return !k.isEmpty() && k.back().isDigit();
        };
        while (at > 0 && (!isBreak(at) || endsInDigit(at))) --at;
        return at > 0 ? text.left(at).trimmed() + dots : dots;
    }
    if (kept.isEmpty()) return qt;
    if (isBreak(keep) || at * 3 >= keep * 2) return kept + dots;
    return qt;
}

QString elideKeepingTail(const QString& text, const QFontMetrics& fm, int width) {
    if (width <= 0) return {};
    if (fm.horizontalAdvance(text) <= width) return text;
    const qsizetype t = tailStart(text);
    if (t <= 0) return fm.elidedText(text, Qt::ElideRight, width);
    const QString head = text.left(t), tail = text.mid(t);
    // A tail of one item (" [bytes=4200595456]": no space inside its brackets) is all that tells
    // two copies apart, and cut it says nothing: it is kept whole while the head keeps a few
    // characters. A longer tail (a grid and a block) gets at most 2/3 and is cut between items.
    const bool oneItem = !tail.trimmed().contains(QLatin1Char(' '));
    const int headLeast = fm.horizontalAdvance(head.left(4) + QStringLiteral("…"));
    const int tailW = oneItem && fm.horizontalAdvance(tail) + headLeast <= width
                          ? fm.horizontalAdvance(tail)
                          : std::min(fm.horizontalAdvance(tail), width * 2 / 3);
    const QString tailText = fm.horizontalAdvance(tail) <= tailW ? tail : elideAtBreak(tail, fm, tailW);
    const int headW = width - fm.horizontalAdvance(tailText);
    return fm.elidedText(head, Qt::ElideRight, std::max(headW, fm.horizontalAdvance(QStringLiteral("…")))) + tailText;
}

}  // namespace contend::widgets
