/** Does not compile: a String is assigned to an int. */
public class Links {
    public static void main(String[] args) {
        int n = "200000";
        System.out.println(n);
    }
}
