// SPDX-License-Identifier: GPL-2.0
/*
 * perf-persistent tool: "perf persistent VERB ...".
 *
 * It is installed as perf-persistent in perf's exec directory, so that
 * perf runs it for "perf persistent", and it runs on its own as well.
 * This file only finds the command; each command lives in its
 * builtin-VERB.c.  Errors are one line on stderr.  The exit status is 0 on
 * success, 1 on failure and 129 for a bad command line, as perf's own
 * commands do.
 */
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "perf_persistent/version.h"

static int cmd_help(int argc, char **argv);

static const struct pp_cmd pp_cmd_help = {
	.name = "help",
	.fn = cmd_help,
	.usage = "[VERB]",
	.help = "this help, or one verb's",
};

/* In the order "perf persistent --help" lists them. */
static const struct pp_cmd *const cmds[] = {
	&pp_cmd_create, &pp_cmd_list, &pp_cmd_info, &pp_cmd_pause,
	&pp_cmd_resume, &pp_cmd_wait, &pp_cmd_trigger, &pp_cmd_detach,
	&pp_cmd_attach, &pp_cmd_destroy, &pp_cmd_stat, &pp_cmd_script,
	&pp_cmd_record, &pp_cmd_convert, &pp_cmd_archive, &pp_cmd_help,
};

#define NR_CMDS	(sizeof(cmds) / sizeof(cmds[0]))

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: perf persistent [--version] [--help] VERB [ARGS]\n\n");
	for (i = 0; i < NR_CMDS; i++)
		fprintf(out, "  %-8s %s\n", cmds[i]->name, cmds[i]->usage);
	fprintf(out, "\nNAME is an event's name or id.  'perf persistent help VERB' describes\n"
		     "a verb; 'man perf-persistent' has the manual.\n");
}

static const struct pp_cmd *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < NR_CMDS; i++)
		if (!strcmp(cmds[i]->name, name))
			return cmds[i];
	return NULL;
}

static void cmd_usage(const struct pp_cmd *c)
{
	printf("usage: perf persistent %s %s\n\n    %s\n", c->name, c->usage,
	       c->help);
}

static int cmd_help(int argc, char **argv)
{
	static const struct pp_opt opts[] = { OPT_END };
	const struct pp_cmd *c;
	int ret;

	ret = pp_parse(argc, argv, opts);
	if (ret)
		return ret;
	if (want_args(argc, argv, 0, 1))
		return PP_EXIT_USAGE;
	if (optind == argc) {
		usage(stdout);
		return 0;
	}
	c = find_cmd(argv[optind]);
	if (!c)
		return usage_error("unknown verb '%s'", argv[optind]);
	cmd_usage(c);
	return 0;
}

int main(int argc, char **argv)
{
	const struct pp_cmd *c;

	if (argc < 2) {
		usage(stderr);
		return PP_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("perf-persistent %s\n", PP_VERSION);
		return 0;
	}
	if (argv[1][0] == '-')
		return usage_error("unknown option '%s' (see: perf persistent --help)",
				   argv[1]);
	c = find_cmd(argv[1]);
	if (!c) {
		pp_error("unknown verb '%s' (see: perf persistent help)", argv[1]);
		return PP_EXIT_USAGE;
	}
	pp_set_command(c);
	/* Each command parses its own arguments, argv[0] being the verb. */
	if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
		cmd_usage(c);
		return 0;
	}
	optind = 1;
	return c->fn(argc - 1, argv + 1);
}
