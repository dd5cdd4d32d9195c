/**
 * File ownership (docs/design.md, "File ownership"): which owners' rows a data file may hold, as
 * its {@code add.tags} record them, and which files a writer's key index must cover. The owners are
 * opaque names (the connector uses its Kafka partitions); merge-core only keeps the rule that a
 * rewrite never loses the owners of the rows it carries.
 */
package io.mergesink.core.ownership;
