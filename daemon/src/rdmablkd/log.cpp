// SPDX-License-Identifier: GPL-2.0
#include "log.hpp"

#include <cstdio>
#include <cstdlib>

#include <sys/stat.h>
#include <sys/uio.h>
#include <systemd/sd-journal.h>
#include <unistd.h>

namespace rdmablk::daemon {

std::string stderr_line(const LogRecord &record)
{
	if (record.priority <= LOG_ERR)
		return "error: " + record.message;
	if (record.priority == LOG_WARNING)
		return "warning: " + record.message;
	return record.message;
}

void Logger::write(const LogRecord &record)
{
	std::lock_guard guard(lock_);
	if (capture_) {
		capture_(record);
		return;
	}
	if (sink_ == Sink::stderr_lines) {
		const std::string line = stderr_line(record) + "\n";
		std::fwrite(line.data(), 1, line.size(), stderr);
		std::fflush(stderr);
		return;
	}
	std::vector<std::string> fields{
		"MESSAGE=" + record.message,
		"PRIORITY=" + std::to_string(record.priority),
		"SYSLOG_IDENTIFIER=rdmablkd",
	};
	for (const LogField &f : record.fields)
		fields.push_back(f.key + "=" + f.value);
	std::vector<iovec> iov;
	for (std::string &f : fields)
		iov.push_back({f.data(), f.size()});
	if (sd_journal_sendv(iov.data(), static_cast<int>(iov.size())) < 0) {
		const std::string line = stderr_line(record) + "\n";
		std::fwrite(line.data(), 1, line.size(), stderr);
	}
}

bool use_journal(bool asked)
{
	if (asked)
		return true;
	const char *stream = std::getenv("JOURNAL_STREAM");
	if (!stream || !*stream)
		return false;
	unsigned long long dev = 0, ino = 0;
	if (std::sscanf(stream, "%llu:%llu", &dev, &ino) != 2)
		return false;
	struct stat st;
	return fstat(STDERR_FILENO, &st) == 0 && st.st_dev == dev && st.st_ino == ino;
}

} // namespace rdmablk::daemon
