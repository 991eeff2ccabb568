public enum InterfacePlaceholder {}
