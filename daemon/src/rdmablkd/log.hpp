// SPDX-License-Identifier: GPL-2.0
/*
 * rdmablkd's log: structured records to the journal when running under
 * systemd, one line per record on stderr otherwise.
 */
#pragma once

#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include <syslog.h>

namespace rdmablk::daemon {

/* A journal field: "RDMABLK_DEVICE", "rdmablk0". */
struct LogField {
	std::string key;
	std::string value;

	bool operator==(const LogField &) const = default;
};

struct LogRecord {
	int priority = LOG_INFO; /* syslog level */
	std::string message;
	std::vector<LogField> fields;

	bool operator==(const LogRecord &) const = default;
};

class Logger {
public:
	enum class Sink { stderr_lines, journal };

	explicit Logger(Sink sink) : sink_(sink) {}
	/* Records go to @capture (tests). */
	explicit Logger(std::function<void(const LogRecord &)> capture)
		: sink_(Sink::stderr_lines), capture_(std::move(capture))
	{
	}

	void write(const LogRecord &record);
	void log(int priority, std::string message) { write({priority, std::move(message), {}}); }
	void info(std::string message) { log(LOG_INFO, std::move(message)); }
	void notice(std::string message) { log(LOG_NOTICE, std::move(message)); }
	void warning(std::string message) { log(LOG_WARNING, std::move(message)); }
	void error(std::string message) { log(LOG_ERR, std::move(message)); }

private:
	Sink sink_;
	std::function<void(const LogRecord &)> capture_;
	std::mutex lock_;
};

/* The line a record is on stderr: "warning: " or "error: " before the message when it is one. */
std::string stderr_line(const LogRecord &record);

/*
 * Log to the journal: asked for (--journal), or stderr is the journal
 * stream systemd set up ($JOURNAL_STREAM names stderr's device and inode).
 */
bool use_journal(bool asked);

} // namespace rdmablk::daemon
