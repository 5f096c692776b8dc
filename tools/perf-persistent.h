/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-persistent: the "perf persistent" command-line tool.
 *
 * main.c finds the command, and each command is in its own builtin-VERB.c.
 * What the commands share is declared in builtin.h and lives in options.c,
 * errmsg.c and util.c.  The parts the commands use are declared here:
 *
 *   error.c      messages on stderr (pp_error()), the verb running
 *   ctl.c        the control device
 *   evspec.c     event names, sizes and sample fields
 *   snapshot.c   reading the buffers through mmap
 *   output.c     decoding with libtraceevent, as perf script does or as
 *                JSON lines
 *   perfdata.c   export to perf.data (blob.c: the bytes of one)
 *   filter.c     trigger filters
 *   fromlog.c    crash dumps
 */
#ifndef PERF_PERSISTENT_TOOL_H
#define PERF_PERSISTENT_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/perf_event.h>
#include <linux/perf_persistent.h>

#include "perf_persistent/decode.h"

/* Exit status of a bad command line, as perf's own commands use. */
#define PP_EXIT_USAGE	129

/*
 * Print "perf persistent: <message>" on stderr.  Returns -1, so that a
 * caller can return its result.
 */
int pp_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * The verb running ("script"), which ctl_lookup()'s hints name; NULL
 * before one runs.
 */
void pp_set_verb(const char *verb);
const char *pp_get_verb(void);

/* ---- ctl.c: the control device -------------------------------------- */

/*
 * Open /dev/perf_persistent, for writing if @write.  Returns the fd, or -1
 * with the reason on stderr.
 */
int ctl_open(bool write);

/* A whole file below the PMU's sysfs directory, malloc()ed; NULL if none. */
char *pmu_file(const char *rel);

/* Issue an ioctl() on the control device; -1 with errno set on failure. */
int ctl_ioctl(int fd, unsigned long cmd, unsigned long arg);

/**
 * struct pp_event_desc - what INFO says about one event
 * @info: the INFO reply (name, id, state, buffer size)
 * @attr: the source attr
 * @cpus: one entry per CPU with a buffer
 * @nr_cpus: entries in @cpus
 */
struct pp_event_desc {
	struct perf_persistent_info info;
	struct perf_event_attr attr;
	struct perf_persistent_cpu_stats *cpus;
	unsigned int nr_cpus;
	/* A tracepoint source's "system:name" as sysfs gives it, or "". */
	char tracepoint[256];
};

/*
 * Describe event @id, or the event named @name when @id is 0.  Returns 0,
 * or -1 with errno set (ENOENT if there is no such event).
 */
int ctl_describe(int fd, unsigned int id, const char *name,
		 struct pp_event_desc *desc);
void ctl_desc_free(struct pp_event_desc *desc);
/*
 * A previous boot's event is named "previous.NAME" (its sysfs directory's
 * name), NAME its name in that boot.
 */
#define PP_PREVIOUS_PREFIX	"previous."
/*
 * Describe the event that @what names or numbers.  Returns 0, or -1 with
 * a message on stderr if there is none.
 */
int ctl_lookup(int fd, const char *what, struct pp_event_desc *desc);
/*
 * Put the ids of every event, ascending, in a malloc()ed array at *@ids.
 * Returns their number, or -1 with a message on stderr.
 */
int ctl_list(int fd, unsigned int **ids);

/* ---- evspec.c: event names, sizes, fields --------------------------- */

/* Where tracefs is mounted, or NULL with a message on stderr. */
const char *tracefs_dir(void);
/* Override the tracefs lookup, for tests.  NULL looks it up again. */
void tracefs_set_dir(const char *dir);
/*
 * Read tracefs file events/@rel.  Returns its contents, malloc()ed and
 * NUL-terminated, with their length in *@len; or NULL.
 */
char *tracefs_read(const char *rel, size_t *len);
/*
 * Put the "sys:name" of the tracepoint whose id is @id into @buf.  Returns
 * false if there is none.
 */
bool tracepoint_name(unsigned long long id, char *buf, size_t len);

/*
 * The sampling frequency of hardware, cache and raw counters, in samples a
 * second, when neither -c nor -F is given.
 */
#define PP_DEFAULT_FREQ		1000

/* Set @attr's sampling for create without -c or -F. */
void default_sampling(struct perf_event_attr *attr);
/**
 * parse_event - fill @attr from an event spelled as perf spells it
 * @spec: "sys:name", a software or hardware event name, "mem:ADDR[/LEN][:rwx]",
 *	or "rNNN"
 * @attr: receives the type, config and breakpoint fields
 * @name: receives a default persistent event name; it has room for
 *	PERF_PERSISTENT_NAME_MAX bytes
 *
 * Return: 0, or -1 with a message on stderr.
 */
int parse_event(const char *spec, struct perf_event_attr *attr, char *name);
/*
 * Parse a buffer size such as "64K", "1M" or "4096" into bytes.  Returns 0,
 * or -1 with a message on stderr.
 */
int parse_size(const char *s, unsigned long long *bytes);
/*
 * Parse "ip,tid,time,..." into PERF_SAMPLE_* bits.  Returns 0, or -1 with a
 * message on stderr.
 */
int parse_fields(const char *s, unsigned long long *sample_type);
/* Spell @sample_type as "ip,tid,..." into @buf. */
void format_fields(unsigned long long sample_type, char *buf, size_t len);
/* The source event as perf spells it ("mce:mce_record", "cpu-clock"). */
void format_source(const struct perf_event_attr *attr, char *buf, size_t len);
/* The same for a described event, whose tracepoint sysfs may have named. */
void format_desc_source(const struct pp_event_desc *desc, char *buf,
			size_t len);
/*
 * Remember that tracepoint @id is @name ("system:name"), so that naming it
 * needs no walk of tracefs.
 */
void tracepoint_learn(unsigned long long id, const char *name);
/* Spell a size in bytes as "64K" or "1M" where it can. */
void format_size(unsigned long long bytes, char *buf, size_t len);

/* ---- snapshot.c: the buffers through the read-only mmap -------------- */

/**
 * struct pp_record - one record copied out of a buffer
 * @data: the record (perf_event_header first)
 * @d: its fields
 * @seq: order within its CPU's buffer, oldest first
 */
struct pp_record {
	void			*data;
	struct pp_decoded	d;
	unsigned long long	seq;
};

/**
 * struct pp_snapshot - the records of every CPU of one event
 * @recs: records, oldest first (by time, then CPU order)
 * @nr: number of records
 * @cap: room in @recs
 * @sample_type: the fields each record holds
 * @regs_user: the user registers a REGS_USER field holds
 * @images: the buffer images @recs point into
 * @nr_images: number of @images
 * @live: the images may end in a partial record, because they were copied
 *	while recording (by a reader that may not pause the event) or come
 *	from a crash dump.  Each image ends where its intact records end.
 */
struct pp_snapshot {
	struct pp_record	*recs;
	size_t			nr;
	size_t			cap;
	unsigned long long	sample_type;
	unsigned long long	regs_user;
	void			**images;
	size_t			nr_images;
	bool			live;
};

/*
 * Copy out what @desc's buffers hold, pausing the event around the copy
 * unless it is paused already.  Returns 0, or -1 with a message on stderr.
 */
int snapshot_take(int fd, const struct pp_event_desc *desc,
		  struct pp_snapshot *snap);
/*
 * Copy [head, tail) of one buffer, as it is mapped (its control page,
 * then its data), into a malloc()ed image; NULL when out of memory.
 * @live says that the buffer may have been written during the copy (or
 * was being written when the kernel crashed).  The image then keeps only
 * the bytes that, by reserve_head, no writer reached (see the UAPI
 * header).  These are the newest bytes, at the start of the image.
 */
void *snapshot_image(const unsigned char *map, size_t *len, bool live);
/*
 * Add the records of one buffer image to @snap.  The image holds the @len
 * bytes between head and tail, the newest record first.  It is malloc()ed,
 * and @snap frees it.  A malformed record ends the image's run: it and
 * the older records are left out (a live copy's oldest record, cut by a
 * writer, is left out silently).  Returns the bytes left out, or -1 if
 * memory runs out.
 */
long snapshot_add(struct pp_snapshot *snap, const void *image, size_t len);
/*
 * Order @snap by time, oldest first.  Records of the same time keep the
 * order in which they were added.
 */
void snapshot_sort(struct pp_snapshot *snap);
/*
 * Set each sample's d.comm to the name that the newest COMM record of its
 * task before it gives, or NULL where there is none.  With @by_cpu, only
 * a COMM record of the sample's CPU names it: that is what the module
 * promises (a task's records on a CPU follow its COMM record there under
 * the same name), where another CPU's COMM record may predate a rename.
 * @snap must be in order.  Returns 0, or -1 when out of memory.
 */
int snapshot_name_tasks(struct pp_snapshot *snap, bool by_cpu);
void snapshot_free(struct pp_snapshot *snap);
/* The samples among @snap's records (the rest are COMM records). */
size_t snapshot_samples(const struct pp_snapshot *snap);

/* ---- output.c: decoding ---------------------------------------------- */

struct pp_printer;

struct pp_cper_mem;
/*
 * The location fields memory error section @m has, into @buf: " node 0
 * card 1 ..." as the kernel's cper_print_mem() names them, or with @edac
 * " node:0 card:1 ... col:5" as ghes_edac's.
 */
void cper_mem_location(const struct pp_cper_mem *m, bool edac, char *buf,
		       size_t len);

/*
 * Make a printer for records of the source @attr.  For a tracepoint, it
 * parses the format from tracefs with libtraceevent.  Returns NULL with a
 * message on failure.
 */
struct pp_printer *printer_new(const struct perf_event_attr *attr);
/*
 * The same for a tracepoint @source ("system:name") whose format text is
 * @fmt (from a crash dump), without tracefs.
 */
struct pp_printer *printer_new_format(const struct perf_event_attr *attr,
				      const char *source, const char *fmt);
void printer_free(struct pp_printer *p);
/* Tell the printer that @pid is called @comm. */
void printer_add_comm(struct pp_printer *p, int pid, const char *comm);
/* The comm registered for @pid, or NULL. */
const char *printer_comm(struct pp_printer *p, int pid);
/*
 * Return the @i-th pid registered and put its comm in *@comm.  Returns -1
 * past the last.
 */
int printer_comm_at(struct pp_printer *p, size_t i, const char **comm);
/* Where the module found the error of a record it wrote itself, or NULL. */
const char *record_origin(const struct pp_decoded *d);
/* The same as its PERF_PERSISTENT_ORIGIN_* value, or 0: traced. */
int record_origin_pid(const struct pp_decoded *d);
/* Print one record as a line, as perf script does. */
void print_record(struct pp_printer *p, FILE *out, const struct pp_decoded *d);
/* Print one record as a JSON object on one line. */
void print_record_json(struct pp_printer *p, FILE *out,
		       const struct pp_decoded *d);
/* Every record of @snap, oldest first unless @newest, as lines or JSON. */
void print_records(struct pp_printer *p, FILE *out,
		   const struct pp_snapshot *snap, bool newest, bool json);
/* Register the comms /proc and tracefs know for the pids in @snap. */
void printer_learn_comms(struct pp_printer *p, const struct pp_snapshot *snap);
/* The event's name as perf script shows it: "mce:mce_record", "cpu-clock". */
const char *printer_event_name(struct pp_printer *p);
/* The format text it was made with (printer_new_format()), or NULL. */
const char *printer_format(struct pp_printer *p);
struct tep_event;
/* The tracepoint's parsed format; NULL for other sources. */
struct tep_event *printer_tep_event(struct pp_printer *p);

/*
 * The records' clock and the wall clock read at one moment (INFO's
 * clock_ns and realtime_ns).  A record stamped T was made at wall-clock
 * time T - clock_ns + realtime_ns.  realtime_ns is 0 when it is unknown:
 * a module older than PERF_PERSISTENT_INFO_SIZE_VER1 does not give it.
 */
struct pp_clock {
	unsigned long long	clock_ns;
	unsigned long long	realtime_ns;
};

void printer_set_clock(struct pp_printer *p, const struct pp_clock *clock,
		       bool wall_clock);
const struct pp_clock *printer_clock(struct pp_printer *p);

/* ---- fromlog.c: crash dumps in kernel logs ---------------------------- */

/*
 * zlib's CRC-32 of @len bytes at @p, as the module computes its dump
 * lines' and its anchor's (crc32_le(~0, ...) inverted).
 */
uint32_t pp_crc32(const void *p, size_t len);

/* Bytes of data per dump line (PP_DUMP_CHUNK of perf_persistent/dump.h). */
#define PP_DUMP_CHUNK_MAX	96

/**
 * struct pp_dump_stream - bytes of a dump: a format text or a CPU's records
 * @data: the bytes read, from offset 0
 * @len: their number
 * @cap: room at @data
 * @gap: a line was missing or damaged, and what followed it is not in @data
 * @skipped: the module skipped the CPU (a writer was mid-record)
 */
struct pp_dump_stream {
	unsigned char	*data;
	size_t		len, cap;
	bool		gap, skipped;
};

/**
 * struct pp_dump_event - one event of a crash dump
 * @id: its id in the crashed boot
 * @name: its name
 * @source: its tracepoint, "system:name", or "-"
 * @attr: type, config and sample_type of its source
 * @format: the tracepoint's format text
 * @cpus: its records per CPU, the newest first
 * @nr_cpus: entries in @cpus
 * @tasks: names of tasks whose COMM records the dump may lack
 * @nr_tasks: entries in @tasks
 */
struct pp_dump_event {
	unsigned int		id;
	char			name[PERF_PERSISTENT_NAME_MAX];
	char			source[128];
	struct perf_event_attr	attr;
	struct pp_dump_stream	format;
	struct pp_dump_stream	*cpus;
	unsigned int		nr_cpus;
	struct pp_dump_task {
		int	cpu, tid;
		char	comm[17];
	}			*tasks;
	size_t			nr_tasks;
};

/**
 * struct pp_dump - the last crash dump of a log
 * @started: a dump's first line was seen
 * @complete: its last line was seen too
 * @version: its format version
 * @reason: "panic" or "oops"
 * @events: its events
 * @nr: number of @events
 * @next_seq: the line expected next
 * @lost_lines: lines missing from the log
 * @bad_lines: lines damaged, with a bad CRC or bad syntax
 */
struct pp_dump {
	bool			started, complete;
	unsigned int		version;
	char			reason[32];
	struct pp_dump_event	*events;
	size_t			nr;
	unsigned long		next_seq, lost_lines, bad_lines;
};

/*
 * Name the records of @snap, a dump of @ev in time order, as far as the
 * dump tells their names for certain; the others are left NULL.  Returns
 * 0, or -1 when out of memory.
 */
int dump_name_tasks(const struct pp_dump_event *ev, struct pp_snapshot *snap);
/*
 * Read the last dump in the log @f.  Returns 0, or -1 with a message on
 * stderr.
 */
int dump_read(FILE *f, struct pp_dump *d);
/*
 * Print @ev's records to @out as script prints a live event's, as JSON
 * lines if @json, and oldest first unless @newest.  What the dump lacks is
 * reported on stderr.  Returns 0, or -1 with a message.
 */
int dump_print_event(const struct pp_dump_event *ev, FILE *out, bool newest,
		     bool json);
void dump_free(struct pp_dump *d);

/* ---- filter.c: trigger filters ------------------------------------- */

/*
 * Compile @expr, perf's tracepoint filter syntax, for the source @attr into
 * at most @max ops.  Returns the number of ops, or -1 with a message on
 * stderr.
 */
int filter_compile(const struct perf_event_attr *attr, const char *expr,
		   struct perf_persistent_filter_op *ops, unsigned int max);

/* ---- perfdata.c: export ---------------------------------------------- */

/**
 * struct pp_export - one event's records, to go into a perf.data file
 * @name: the persistent event's name, for messages
 * @attr: its source attr
 * @id: the id its records carry
 * @snap: its records
 * @p: its printer: the tracepoint's format and the tasks' names
 */
struct pp_export {
	const char			*name;
	struct perf_event_attr		attr;
	unsigned int			id;
	bool				previous;	/* a previous boot's */
	bool				dumped;		/* read from a crash dump */
	const struct pp_snapshot	*snap;
	struct pp_printer		*p;
};

/*
 * Write the records of the @nr events @ev as one perf.data file at @path,
 * as perf record would have written them: an attr per event, COMM
 * records naming every task the records name, the tracing data perf needs
 * for tracepoints, and the header features perf's tools read.  @cmdline
 * (@argc strings) is the command that made the file.  Returns 0, or -1
 * with a message on stderr.
 */
int perfdata_write(const char *path, const struct pp_export *ev, size_t nr,
		   int argc, char **cmdline);
/* Whether perfdata_write() fills perf's build-id cache (default: yes). */
void perfdata_set_buildid_cache(bool on);

/* ---- files.c: directories ------------------------------------------------ */

/* Remove the directory tree at @path; 0, or -1 with errno set. */
int remove_tree(const char *path);

/*
 * Make directory @path's entries durable (fsync), and with @files the
 * files written in it too (syncfs of its filesystem: perf.data and
 * trace.dat are written by code that does not sync them).  0, or -1 with
 * errno set.
 */
int sync_dir(const char *path, bool files);

/* ---- tracedat.c: export to trace-cmd's trace.dat ------------------------ */

/*
 * Write the tracepoint records of the @nr events @ev as one trace.dat
 * (version 6) at @path: their formats, the names of the tasks they name,
 * and each CPU's records in ftrace's ring buffer pages, oldest first.
 * Every event must be a tracepoint whose records hold their time, CPU and
 * payload.  Returns 0 and the records written in @written, or -1 with a
 * message on stderr and no file.
 */
int tracedat_write(const char *path, const struct pp_export *ev, size_t nr,
		   size_t *written);
/* Whether trace-cmd's library, which writes a trace.dat, can be loaded. */
bool tracedat_available(void);

/* ---- readerdata.c: the records in a perf.data of readers --------------- */

/**
 * struct pp_reader_event - what a file's readers received of one event
 * @id: the persistent event's id (the readers' attr.config)
 * @sample_type: the fields of its stored records
 * @recs: the stored records, in the order they arrived (into the file)
 * @nr: their number
 * @cap: room in @recs
 * @bytes: their bytes
 * @lost_bytes: bytes the readers were told they lost (struct
 *	perf_persistent_lost)
 * @losses: how many times
 */
struct pp_reader_event {
	unsigned int		id;
	unsigned long long	sample_type;
	const void		**recs;
	size_t			nr;
	size_t			cap;
	size_t			bytes;
	unsigned long long	lost_bytes;
	unsigned long long	losses;
};

/* The events of a file, and the file's bytes their records point into. */
struct pp_reader_events {
	struct pp_reader_event	*ev;
	size_t			nr;
	unsigned char		*buf;
};

/*
 * Read the perf.data at @path, written by perf record of persistent
 * readers (attrs of type @pmu_type): the stored records of each event.
 * Returns 0, or -1 with a message on stderr.
 */
int readerdata_read(const char *path, unsigned int pmu_type,
		    struct pp_reader_events *out);
/*
 * @ev's records as a snapshot, in time order and named, their REGS_USER
 * fields holding the registers of @regs_user (the source's
 * sample_regs_user); 0 or -1 (reported).
 */
int readerdata_snapshot(const struct pp_reader_event *ev, __u64 regs_user,
			struct pp_snapshot *snap);
void readerdata_free(struct pp_reader_events *r);

#endif /* PERF_PERSISTENT_TOOL_H */
