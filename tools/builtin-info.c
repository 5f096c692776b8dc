// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: "perf persistent info", everything about one
 * event, per CPU.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"

/*
 * Put the names of the ids in a trigger line's "targets=ID,ID" into @out.
 * An id whose event is gone is shown as #ID.
 */
static void target_names(int fd, const char *ids, char *out, size_t len)
{
	size_t used = 0;

	out[0] = '\0';
	while (*ids && used < len) {
		unsigned int id = strtoul(ids, (char **)&ids, 10);
		struct pp_event_desc d;
		int n;

		if (!ctl_describe(fd, id, NULL, &d)) {
			n = snprintf(out + used, len - used, "%s%s",
				     used ? "," : "", d.info.name);
			ctl_desc_free(&d);
		} else {
			n = snprintf(out + used, len - used, "%s#%u",
				     used ? "," : "", id);
		}
		used += n > 0 ? (size_t)n : 0;
		if (*ids == ',')
			ids++;
		else
			break;
	}
}

/* Print the scope line, with how a task scope is inherited. */
static void print_scope(const struct pp_event_desc *desc)
{
	char scope[PATH_MAX], *exited;

	scope_str(desc, scope, sizeof(scope));
	if (desc->info.scope != PERF_PERSISTENT_SCOPE_TASK) {
		printf("scope:         %s\n", scope);
		return;
	}
	exited = strstr(scope, " exited");
	if (exited)
		*exited = '\0';
	printf("scope:         %s%s, %s\n", scope, exited ? " (exited)" : "",
	       !desc->attr.inherit ? "its threads at creation" :
	       desc->attr.inherit_thread ? "inherited by threads" :
	       "inherited by threads and children");
	if (desc->attr.sigtrap)
		printf("sigtrap:       SIGTRAP to the thread, si_perf_data 0x%llx\n",
		       (unsigned long long)desc->attr.sig_data);
}

/* Print the trigger as its sysfs line gives it, with the targets' names. */
static void print_trigger(int fd, const struct pp_event_desc *desc)
{
	char line[1024], names[400];
	unsigned long long count = 0, after = 0;
	int fired = 0;
	char *p, *filter;

	instance_attr(desc->info.name, "trigger", line, sizeof(line));
	/* The filter runs to the end of the line. */
	filter = strstr(line, " filter=");
	if (filter) {
		*filter = '\0';
		filter += strlen(" filter=");
	}
	p = strchr(line, ' ');
	if (!strncmp(line, "targets=", 8) && p &&
	    sscanf(p, " count=%llu after=%llu fired=%d", &count, &after,
		   &fired) == 3) {
		*p = '\0';
		target_names(fd, line + 8, names, sizeof(names));
		printf("trigger:       freezes %s on record %llu, after %llu more records each; %s\n",
		       names, count, after, fired ? "fired" : "armed");
		if (filter)
			printf("filter:        %s\n", filter);
	}
}

/* When the event froze, and how often. */
static void print_frozen(const struct pp_event_desc *desc)
{
	char times[32], at[32];

	instance_attr(desc->info.name, "freezes", times, sizeof(times));
	instance_attr(desc->info.name, "frozen_at", at, sizeof(at));
	printf("frozen:        at %llu.%06llu (frozen %s times)\n",
	       strtoull(at, NULL, 10) / 1000000000ULL,
	       strtoull(at, NULL, 10) % 1000000000ULL / 1000, times);
}

/* One line per CPU. */
static void print_cpus(const struct pp_event_desc *desc)
{
	unsigned int i;

	/*
	 * Positions count down from 0 as records are written.  Shown signed,
	 * -HEAD is how many bytes the CPU has written in all, and TAIL - HEAD
	 * is how many it holds.
	 */
	printf("%5s %7s %10s %10s %12s %10s %12s %12s %12s %12s\n", "CPU",
	       "ONLINE", "WRITTEN", "HELD", "OVERWRITTEN", "DROPPED", "BYTES",
	       "COUNT", "HEAD", "HELD-BYTES");
	for (i = 0; i < desc->nr_cpus; i++) {
		const struct perf_persistent_cpu_stats *cs = &desc->cpus[i];

		printf("%5u %7s %10llu %10llu %12llu %10llu %12llu %12llu %12lld %12llu\n",
		       cs->cpu, cs->online ? "yes" : "no",
		       (unsigned long long)cs->written,
		       (unsigned long long)(cs->written - cs->overwritten),
		       (unsigned long long)cs->overwritten,
		       (unsigned long long)cs->dropped,
		       (unsigned long long)cs->bytes,
		       (unsigned long long)cs->count,
		       (long long)cs->head,
		       (unsigned long long)(cs->tail - cs->head));
	}
}

/* The event's settings and totals. */
static void print_summary(const struct pp_event_desc *desc)
{
	char src[256], size[32], fields[128];
	struct totals t;

	sum(desc, &t);
	format_desc_source(desc, src, sizeof(src));
	format_size(desc->info.buffer_size, size, sizeof(size));
	format_fields(desc->attr.sample_type, fields, sizeof(fields));
	printf("name:          %s\n", desc->info.name);
	printf("id:            %u\n", desc->info.id);
	printf("source:        %s (type %u, config 0x%llx)\n", src,
	       desc->attr.type, (unsigned long long)desc->attr.config);
	printf("state:         %s\n", state_str(desc->info.state));
	print_scope(desc);
	if (desc->attr.freq)
		printf("sample freq:   %llu Hz\n",
		       (unsigned long long)desc->attr.sample_freq);
	else if (desc->attr.sample_period)
		printf("sample period: %llu\n",
		       (unsigned long long)desc->attr.sample_period);
	else
		printf("sample period: none (counting)\n");
	printf("sample fields: %s\n", fields[0] ? fields : "none");
	printf("comm records:  %s\n", desc->attr.comm ? "yes" : "no");
	printf("crash dump:    %s\n",
	       desc->info.state & PERF_PERSISTENT_STATE_CRASH_DUMP ? "yes" : "no");
	printf("record path:   %s\n",
	       desc->info.state & PERF_PERSISTENT_STATE_DIRECT ?
	       "direct (the module's probe on the tracepoint)" :
	       "perf (a kernel counter per CPU)");
	printf("buffer:        %s per CPU, %u CPUs\n", size, desc->nr_cpus);
	printf("records:       %llu written, %llu held, %llu overwritten, %llu dropped, %llu bytes\n",
	       t.written, t.written - t.overwritten, t.overwritten, t.dropped,
	       t.bytes);
	printf("count:         %llu\n",
	       desc->info.scope ? (unsigned long long)desc->info.count : t.count);
}

/*
 * A profile's samples are named by the module's table of mappings, shared
 * by the profiles: how full it is.
 */
static void print_maps(int fd, const struct pp_event_desc *desc)
{
	struct perf_persistent_maps m = { .size = sizeof(m) };
	unsigned long long st = desc->attr.sample_type;

	if (!(st & PERF_SAMPLE_CALLCHAIN) &&
	    (desc->attr.type == PERF_TYPE_TRACEPOINT || !(st & PERF_SAMPLE_IP)))
		return;
	if (ctl_ioctl(fd, PERF_PERSISTENT_IOC_MAPS, (unsigned long)&m))
		return;
	printf("mappings:      %llu processes, %llu KiB of %llu KiB, %llu dropped, %llu missed\n",
	       (unsigned long long)m.processes,
	       (unsigned long long)(m.bytes + 1023) >> 10,
	       (unsigned long long)m.budget >> 10,
	       (unsigned long long)m.dropped, (unsigned long long)m.missed);
}

static int cmd_info(int argc, char **argv)
{
	static const struct pp_opt opts[] = { OPT_END };
	struct pp_event_desc desc;
	int fd;

	fd = open_event(argc, argv, opts, &desc, false);
	if (fd < 0)
		return -fd;
	print_summary(&desc);
	print_maps(fd, &desc);
	if (desc.info.state & PERF_PERSISTENT_STATE_TRIGGER)
		print_trigger(fd, &desc);
	if (desc.info.state & PERF_PERSISTENT_STATE_FROZEN)
		print_frozen(&desc);
	print_cpus(&desc);
	ctl_desc_free(&desc);
	close(fd);
	return 0;
}

const struct pp_cmd pp_cmd_info = {
	.name = "info",
	.fn = cmd_info,
	.usage = "NAME",
	.help = "everything about one event, per CPU",
};
