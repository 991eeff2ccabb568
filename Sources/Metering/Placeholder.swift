public enum MeteringPlaceholder {}
